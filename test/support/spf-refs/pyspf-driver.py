"""check_host() by pyspf (Debian python3-spf) for the SPF differential test.

Usage: python3 pyspf-driver.py PORT. Reads one JSON case a line on stdin
({"id", "ip", "sender", "helo"}) and writes one JSON result a line on stdout. Every DNS
question goes to the loopback fixture server at 127.0.0.1:PORT.
"""
import json
import sys

import spf

PORT = int(sys.argv[1])

# pyspf prefers dnspython and falls back to pydns (python3-dns); point whichever it picked at
# the fixture server instead of the system resolvers it read at import time.
if spf.DNSLookup is spf.DNSLookup_pydns:
    import DNS

    DNS.defaults['server'] = ['127.0.0.1']
    DNS.defaults['port'] = PORT
    DNS.defaults['server_rotate'] = 0
else:
    import dns.resolver

    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers = ['127.0.0.1']
    resolver.port = PORT
    dns.resolver.default_resolver = resolver

# pyspf's own texts for a fail without exp= and for the other results: not explanations.
DEFAULT_TEXTS = set(spf.EXPLANATIONS.values())

for line in sys.stdin:
    case = json.loads(line)
    out = {'id': case['id']}
    try:
        q = spf.query(i=case['ip'], s=case['sender'], h=case['helo'],
                      receiver='unknown', timeout=5)
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
