"""check_host() by pyspf (Debian python3-spf) for the SPF differential test.

Usage: python3 pyspf-driver.py PORT. Reads one JSON case a line on stdin
({"id", "ip", "sender", "helo"}) and writes one JSON result a line on stdout. Every DNS
question goes to the loopback fixture server at 127.0.0.1:PORT.
With --describe instead of a port: one JSON line saying which versions and DNS backend run.

pyspf has two DNS backends and picks dnspython over pydns when both are installed. They read
DNS failures differently (dnspython turns a REFUSED or SERVFAIL answer into temperror, pydns
into an empty answer), and the known disagreements of the test are written for one of them,
so the driver pins pydns (python3-dns, what Debian's python3-spf depends on) whatever else the
machine has.
"""
import json
import sys

import spf
import DNS  # pydns; its absence is reported by the test as a skip, before the driver runs

PICKED_AT_IMPORT = 'pydns' if spf.DNSLookup is spf.DNSLookup_pydns else 'dnspython'

# What spf.py does when it falls back to pydns at import time: the module global DNSLookup_pydns
# reads, type 99 known, then the lookup function every query calls.
spf.DNS = DNS
if not hasattr(DNS.Type, 'SPF'):
    DNS.Type.SPF = 99
    DNS.Type.typemap[99] = 'SPF'
    DNS.Lib.RRunpacker.getSPFdata = DNS.Lib.RRunpacker.getTXTdata
spf.DNSLookup = spf.DNSLookup_pydns
BACKEND = 'pydns' if spf.DNSLookup is spf.DNSLookup_pydns else 'dnspython'

TIMEOUT = 5

if sys.argv[1:] == ['--describe']:
    sys.stdout.write(json.dumps({
        'name': 'pyspf',
        'version': spf.__version__,
        'backend': BACKEND,
        'backend_version': DNS.__version__,
        'picked_at_import': PICKED_AT_IMPORT,
        'python': sys.version.split()[0],
        'options': 'receiver=unknown timeout=%d, pydns over udp, one server, no rotation' % TIMEOUT,
    }) + '\n')
    sys.exit(0)

PORT = int(sys.argv[1])
DNS.defaults['server'] = ['127.0.0.1']
DNS.defaults['port'] = PORT
DNS.defaults['server_rotate'] = 0

# pyspf's own texts for a fail without exp= and for the other results: not explanations.
DEFAULT_TEXTS = set(spf.EXPLANATIONS.values())

for line in sys.stdin:
    case = json.loads(line)
    out = {'id': case['id']}
    try:
        q = spf.query(i=case['ip'], s=case['sender'], h=case['helo'],
                      receiver='unknown', timeout=TIMEOUT)
        result, _code, text = q.check()
        out['result'] = result
        out['voids'] = q.void_lookups
        out['lookups'] = q.lookups
        if result == 'fail' and text not in DEFAULT_TEXTS:
            out['explanation'] = text
        if result in ('permerror', 'temperror'):
            out['reason'] = str(text)
    except Exception as err:  # a crash is a result to report, not a reason to stop
        out['result'] = 'crash'
        out['reason'] = '%s: %s' % (type(err).__name__, err)
    sys.stdout.write(json.dumps(out) + '\n')
    sys.stdout.flush()
