import assert from 'node:assert/strict';
import { detectAt, detectInLine, type DetectContext } from '../../../src/detect/index';

// [kind, text, value]; every case also checks text === line.slice(start, end).
type Item = [kind: string, text: string, value: string];
type Case = [name: string, line: string, expected: Item[], context?: DetectContext];

const zone = (origin = 'example.com.'): DetectContext => ({ languageId: 'dns-zone', origin });
const ts: DetectContext = { languageId: 'typescript' };

const cases: Case[] = [
  // Prose
  ['plain host', 'Go to example.com now', [['hostname', 'example.com', 'example.com']]],
  [
    'subdomain',
    'api.eu.example.org is up',
    [['hostname', 'api.eu.example.org', 'api.eu.example.org']],
  ],
  ['upper case', 'Visit WWW.Example.COM', [['hostname', 'WWW.Example.COM', 'www.example.com']]],
  ['sentence dot', 'I use example.net.', [['hostname', 'example.net', 'example.net']]],
  [
    'comma and question',
    'example.org, or example.com?',
    [
      ['hostname', 'example.org', 'example.org'],
      ['hostname', 'example.com', 'example.com'],
    ],
  ],
  ['parenthesised', '(see example.com)', [['hostname', 'example.com', 'example.com']]],
  [
    'quoted',
    '"example.com" and \'example.org\'',
    [
      ['hostname', 'example.com', 'example.com'],
      ['hostname', 'example.org', 'example.org'],
    ],
  ],
  [
    'two-level public suffix',
    'shop.example.co.uk',
    [['hostname', 'shop.example.co.uk', 'shop.example.co.uk']],
  ],
  ['private PSL suffix', 'me.github.io', [['hostname', 'me.github.io', 'me.github.io']]],
  ['IDN', 'Visit münchen.de today', [['hostname', 'münchen.de', 'münchen.de']]],
  ['A-label', 'xn--mnchen-3ya.de', [['hostname', 'xn--mnchen-3ya.de', 'xn--mnchen-3ya.de']]],
  [
    'underscore label',
    '_dmarc.example.com TXT',
    [['hostname', '_dmarc.example.com', '_dmarc.example.com']],
  ],
  [
    'host with path, no scheme',
    'example.com/docs/start',
    [['hostname', 'example.com', 'example.com']],
  ],
  ['host with port', 'example.com:8443', [['hostname', 'example.com', 'example.com']]],
  [
    'in-addr.arpa name',
    '10.2.0.192.in-addr.arpa',
    [['hostname', '10.2.0.192.in-addr.arpa', '10.2.0.192.in-addr.arpa']],
  ],
  ['unknown TLD', 'foo.bar.baz is not a host', []],
  ['label with leading hyphen', '-foo.example.com', []],
  ['label with trailing hyphen', 'foo-.example.com', []],
  ['too long label', `${'a'.repeat(64)}.com`, []],

  // Special-use names and wildcards
  ['localhost', 'curl localhost:3000', [['hostname', 'localhost', 'localhost']]],
  ['.test', 'app.test', [['hostname', 'app.test', 'app.test']]],
  ['.example', 'www.example', [['hostname', 'www.example', 'www.example']]],
  ['.invalid', 'nothing.invalid', [['hostname', 'nothing.invalid', 'nothing.invalid']]],
  ['.local', 'printer.local', [['hostname', 'printer.local', 'printer.local']]],
  ['.internal', 'db.internal', [['hostname', 'db.internal', 'db.internal']]],
  ['.lan', 'nas.lan', [['hostname', 'nas.lan', 'nas.lan']]],
  ['home.arpa', 'router.home.arpa', [['hostname', 'router.home.arpa', 'router.home.arpa']]],
  ['.localhost', 'app.localhost', [['hostname', 'app.localhost', 'app.localhost']]],
  [
    'wildcard keeps the star',
    'cert for *.example.com',
    [['hostname', '*.example.com', '*.example.com']],
  ],
  ['localhost inside a path is not', 'cd /srv/localhost', []],

  // Traps: files, versions, code, abbreviations
  ['package.json', 'edit package.json', []],
  ['archive.zip', 'download archive.zip', []],
  ['README.md', 'see README.md', []],
  ['script.py', 'run setup.py install', []],
  ['shell script', 'run ./deploy.sh', []],
  ['Rust file', 'open src/lib.rs', []],
  [
    'www. overrides extension TLD',
    'www.example.zip',
    [['hostname', 'www.example.zip', 'www.example.zip']],
  ],
  ['index.html', 'index.html', []],
  ['path component', 'src/detect/index.ts', []],
  ['version', 'version 1.2.3', []],
  ['v-version', 'release v2.0.1', []],
  ['four-part version with v', 'v1.2.3.4', []],
  ['e.g. and i.e.', 'e.g. this, i.e. that', []],
  ['object path in prose', 'foo.bar.baz', []],
  ['this.* object path', 'this.foo.bar = 1', []],
  ['method call', 'obj.prop.com()', []],
  ['process.env', 'process.env.dev', []],
  ['code identifiers are not hosts', 'const x = cfg.server.host;', [], ts],
  [
    'code string is searched',
    'fetch("api.example.com")',
    [['hostname', 'api.example.com', 'api.example.com']],
    ts,
  ],
  [
    'code comment is searched',
    'x(); // see docs.example.com',
    [['hostname', 'docs.example.com', 'docs.example.com']],
    ts,
  ],
  ['code: method call outside string', 'a.example.com(1)', [], ts],
  [
    'python comment',
    'x = a.b.app  # docs.example.com',
    [['hostname', 'docs.example.com', 'docs.example.com']],
    { languageId: 'python' },
  ],
  [
    'JSDoc continuation line',
    ' * See https://example.com/api.',
    [['url', 'https://example.com/api', 'https://example.com/api']],
    ts,
  ],
  ['template variable', '${sub}.example.com', []],
  [
    'email local part is not a host',
    'first.last@example.com',
    [['email', 'first.last@example.com', 'example.com']],
  ],

  ['Markdown bold', 'Use **example.com** here', [['hostname', 'example.com', 'example.com']]],
  ['module specifier is a package', "import io from 'socket.io';", [], ts],
  ['require specifier is a package', "const g = require('lodash.app');", [], ts],
  ['env DB_HOST', 'DB_HOST=db.corp.acme', [['hostname', 'db.corp.acme', 'db.corp.acme']]],
  [
    'camelCase smtpServer',
    'smtpServer: mail.corp.acme',
    [['hostname', 'mail.corp.acme', 'mail.corp.acme']],
  ],
  ['ghost is not host', 'ghost: db.corp.acme', []],
  // URLs
  [
    'https URL',
    'See https://example.com/a/b?c=d#e',
    [['url', 'https://example.com/a/b?c=d#e', 'https://example.com/a/b?c=d#e']],
  ],
  [
    'URL trailing dot',
    'Go to https://example.com/x.',
    [['url', 'https://example.com/x', 'https://example.com/x']],
  ],
  [
    'URL trailing comma',
    'https://example.com, then',
    [['url', 'https://example.com', 'https://example.com']],
  ],
  [
    'URL in parentheses',
    '(https://example.com/a)',
    [['url', 'https://example.com/a', 'https://example.com/a']],
  ],
  [
    'URL with balanced parentheses',
    'https://en.example.org/wiki/A_(b)',
    [['url', 'https://en.example.org/wiki/A_(b)', 'https://en.example.org/wiki/A_(b)']],
  ],
  [
    'URL with port',
    'http://example.com:8080/path',
    [['url', 'http://example.com:8080/path', 'http://example.com:8080/path']],
  ],
  [
    'URL with IPv6 host',
    'http://[2001:db8::1]:8080/',
    [['url', 'http://[2001:db8::1]:8080/', 'http://[2001:db8::1]:8080/']],
  ],
  [
    'URL with an IPv4 host, then an address and a name outside it',
    'http://192.0.2.1:8080/a.b then 192.0.2.7 and example.org',
    [
      ['url', 'http://192.0.2.1:8080/a.b', 'http://192.0.2.1:8080/a.b'],
      ['ip', '192.0.2.7', '192.0.2.7'],
      ['hostname', 'example.org', 'example.org'],
    ],
  ],
  [
    'Markdown link to an address URL: the URL alone',
    '- [link 5](http://127.0.1.6:40000/p/5)',
    [['url', 'http://127.0.1.6:40000/p/5', 'http://127.0.1.6:40000/p/5']],
    { languageId: 'markdown' },
  ],
  [
    'URL in angle brackets',
    '<https://example.com>',
    [['url', 'https://example.com', 'https://example.com']],
  ],
  [
    'Markdown link gives the URL only',
    '[example.com](https://example.com/x)',
    [['url', 'https://example.com/x', 'https://example.com/x']],
  ],
  [
    'Markdown link with title',
    '[docs](https://example.com/d "Docs")',
    [['url', 'https://example.com/d', 'https://example.com/d']],
  ],
  ['Markdown image file', '![logo](img/logo.png)', []],
  ['URL with template host is not', 'http://${HOST}/x', []],
  [
    'other scheme: host only',
    'ftp://ftp.example.com/pub',
    [['hostname', 'ftp.example.com', 'ftp.example.com']],
  ],

  // IP addresses
  ['IPv4', 'ping 192.0.2.1', [['ip', '192.0.2.1', '192.0.2.1']]],
  ['IPv4 with port', '192.0.2.1:8080', [['ip', '192.0.2.1', '192.0.2.1']]],
  ['IPv4 CIDR', 'allow 10.0.0.0/8;', [['ip', '10.0.0.0', '10.0.0.0']]],
  ['IPv4 end of sentence', 'It is 192.0.2.1.', [['ip', '192.0.2.1', '192.0.2.1']]],
  ['octet over 255', '10.0.0.256', []],
  ['leading zeros', '01.2.3.4', []],
  ['OID is not an IP', '1.3.6.1.4.1', []],
  ['IPv6 with ::', 'AAAA 2001:db8::1', [['ip', '2001:db8::1', '2001:db8::1']]],
  ['IPv6 loopback', 'bind ::1 only', [['ip', '::1', '::1']]],
  [
    'IPv6 full form upper case',
    '2001:0DB8:0:0:0:0:0:1',
    [['ip', '2001:0DB8:0:0:0:0:0:1', '2001:0db8:0:0:0:0:0:1']],
  ],
  ['IPv6 bracketed with port', 'listen [2001:db8::1]:443;', [['ip', '2001:db8::1', '2001:db8::1']]],
  ['IPv6 zone id', 'fe80::1%eth0', [['ip', 'fe80::1', 'fe80::1']]],
  ['IPv4-mapped IPv6', '::ffff:192.0.2.1', [['ip', '::ffff:192.0.2.1', '::ffff:192.0.2.1']]],
  ['IPv6 end of sentence', 'Use 2001:db8::53.', [['ip', '2001:db8::53', '2001:db8::53']]],
  ['time is not IPv6', 'at 12:30:45', []],
  ['MAC is not IPv6', '00:1a:2b:3c:4d:5e', []],
  ['C++ scope is not IPv6', 'std::cout and dec::add', []],

  // E-mail
  ['email', 'Mail bob@Example.NET.', [['email', 'bob@Example.NET', 'example.net']]],
  ['mailto', 'mailto:dmarc@example.com', [['email', 'dmarc@example.com', 'example.com']]],
  ['npm version spec is not email', 'lodash@4.17.21', []],
  ['decorator is not email', '@Component.foo', []],

  // Config files
  [
    'nginx server_name',
    '    server_name example.com www.example.com;',
    [
      ['hostname', 'example.com', 'example.com'],
      ['hostname', 'www.example.com', 'www.example.com'],
    ],
  ],
  [
    'nginx leading dot and wildcard',
    'server_name .example.org *.example.net;',
    [
      ['hostname', 'example.org', 'example.org'],
      ['hostname', '*.example.net', '*.example.net'],
    ],
  ],
  [
    'nginx any-TLD in host context',
    'server_name db.corp.acme;',
    [['hostname', 'db.corp.acme', 'db.corp.acme']],
  ],
  ['nginx regex and catch-all skipped', 'server_name _ ~^www\\d+\\.example\\.net$;', []],
  [
    'nginx proxy_pass',
    'proxy_pass http://backend.example.com:8080/;',
    [['url', 'http://backend.example.com:8080/', 'http://backend.example.com:8080/']],
  ],
  [
    'Apache ServerName with port',
    'ServerName www.example.com:80',
    [['hostname', 'www.example.com', 'www.example.com']],
  ],
  [
    'Apache ServerAlias',
    'ServerAlias example.com *.example.com',
    [
      ['hostname', 'example.com', 'example.com'],
      ['hostname', '*.example.com', '*.example.com'],
    ],
  ],
  [
    'Caddyfile site block',
    'example.com, www.example.com {',
    [
      ['hostname', 'example.com', 'example.com'],
      ['hostname', 'www.example.com', 'www.example.com'],
    ],
  ],
  ['Caddyfile any TLD', 'app.corp.acme:443 {', [['hostname', 'app.corp.acme', 'app.corp.acme']]],
  ['YAML host', 'host: db.corp.acme # primary', [['hostname', 'db.corp.acme', 'db.corp.acme']]],
  [
    'k8s Ingress host',
    '  - host: app.example.com',
    [['hostname', 'app.example.com', 'app.example.com']],
  ],
  [
    'YAML hostname of file-extension TLD',
    'hostname: build.sh',
    [['hostname', 'build.sh', 'build.sh']],
  ],
  [
    'JSON domain',
    '  "domain": "example.internal",',
    [['hostname', 'example.internal', 'example.internal']],
  ],
  [
    'inline JSON host',
    '{"host": "a.corp.acme", "port": 5432}',
    [['hostname', 'a.corp.acme', 'a.corp.acme']],
  ],
  ['YAML unrelated key with file', 'file: archive.zip', []],
  [
    'Terraform name',
    '  name = "www.example.com"',
    [['hostname', 'www.example.com', 'www.example.com']],
    { languageId: 'terraform' },
  ],
  ['Terraform reference is not', '  zone = module.dns.zone', [], { languageId: 'terraform' }],
  [
    '/etc/hosts line',
    '127.0.1.1 myhost.example.com myhost',
    [
      ['ip', '127.0.1.1', '127.0.1.1'],
      ['hostname', 'myhost.example.com', 'myhost.example.com'],
      ['hostname', 'myhost', 'myhost'],
    ],
  ],
  [
    '/etc/hosts IPv6',
    '::1 ip6-localhost ip6-loopback',
    [
      ['ip', '::1', '::1'],
      ['hostname', 'ip6-localhost', 'ip6-localhost'],
      ['hostname', 'ip6-loopback', 'ip6-loopback'],
    ],
  ],
  [
    'prose after an IP is not a hosts line',
    '192.0.2.1 is the address',
    [['ip', '192.0.2.1', '192.0.2.1']],
  ],
  [
    'dig command',
    'dig @192.0.2.53 db.corp.acme MX +short',
    [
      ['ip', '192.0.2.53', '192.0.2.53'],
      ['hostname', 'db.corp.acme', 'db.corp.acme'],
    ],
  ],
  [
    'SPF text',
    'v=spf1 include:_spf.example.com ip4:192.0.2.0/24 ip6:2001:db8::/32 -all',
    [
      ['hostname', '_spf.example.com', '_spf.example.com'],
      ['ip', '192.0.2.0', '192.0.2.0'],
      ['ip', '2001:db8::', '2001:db8::'],
    ],
  ],

  // Zone files
  [
    'zone @ owner and relative NS',
    '@ IN NS ns1',
    [
      ['hostname', '@', 'example.com'],
      ['hostname', 'ns1', 'ns1.example.com'],
    ],
    zone(),
  ],
  [
    'zone relative owner with A',
    'www 300 IN A 192.0.2.1',
    [
      ['hostname', 'www', 'www.example.com'],
      ['ip', '192.0.2.1', '192.0.2.1'],
    ],
    zone(),
  ],
  [
    'zone absolute names keep the dot',
    'ns2.example.com. IN A 192.0.2.2',
    [
      ['hostname', 'ns2.example.com.', 'ns2.example.com'],
      ['ip', '192.0.2.2', '192.0.2.2'],
    ],
    zone(),
  ],
  [
    'zone MX relative exchange',
    '@ 1h IN MX 10 mail',
    [
      ['hostname', '@', 'example.com'],
      ['hostname', 'mail', 'mail.example.com'],
    ],
    zone(),
  ],
  [
    'zone CNAME to @',
    'www IN CNAME @',
    [
      ['hostname', 'www', 'www.example.com'],
      ['hostname', '@', 'example.com'],
    ],
    zone(),
  ],
  [
    'zone CNAME absolute',
    'shop CNAME shops.example.net.',
    [
      ['hostname', 'shop', 'shop.example.com'],
      ['hostname', 'shops.example.net.', 'shops.example.net'],
    ],
    zone(),
  ],
  [
    'zone SRV target',
    '_sip._tcp IN SRV 10 60 5060 sip',
    [
      ['hostname', '_sip._tcp', '_sip._tcp.example.com'],
      ['hostname', 'sip', 'sip.example.com'],
    ],
    zone(),
  ],
  [
    'zone PTR',
    '1 IN PTR host1.example.com.',
    [
      ['hostname', '1', '1.2.0.192.in-addr.arpa'],
      ['hostname', 'host1.example.com.', 'host1.example.com'],
    ],
    zone('2.0.192.in-addr.arpa.'),
  ],
  [
    'zone owner-less line',
    '        IN AAAA 2001:db8::1',
    [['ip', '2001:db8::1', '2001:db8::1']],
    zone(),
  ],
  [
    'zone class before TTL',
    'mx2 IN 3600 A 192.0.2.3',
    [
      ['hostname', 'mx2', 'mx2.example.com'],
      ['ip', '192.0.2.3', '192.0.2.3'],
    ],
    zone(),
  ],
  [
    'zone wildcard owner',
    '*.apps IN A 192.0.2.80',
    [
      ['hostname', '*.apps', '*.apps.example.com'],
      ['ip', '192.0.2.80', '192.0.2.80'],
    ],
    zone(),
  ],
  [
    'zone SOA names',
    '@ IN SOA ns1 hostmaster (',
    [
      ['hostname', '@', 'example.com'],
      ['hostname', 'ns1', 'ns1.example.com'],
    ],
    zone(),
  ],
  ['zone SOA continuation', '    2024010101 7200 3600 1209600 300 )', [], zone()],
  [
    'zone TXT string',
    '@ IN TXT "v=spf1 include:_spf.example.net -all"',
    [
      ['hostname', '@', 'example.com'],
      ['hostname', '_spf.example.net', '_spf.example.net'],
    ],
    zone(),
  ],
  [
    'zone CAA value',
    '@ IN CAA 0 issue "ca.example.net"',
    [
      ['hostname', '@', 'example.com'],
      ['hostname', 'ca.example.net', 'ca.example.net'],
    ],
    zone(),
  ],
  [
    'zone comment',
    'www IN A 192.0.2.1 ; moved from old.example.org',
    [
      ['hostname', 'www', 'www.example.com'],
      ['ip', '192.0.2.1', '192.0.2.1'],
      ['hostname', 'old.example.org', 'old.example.org'],
    ],
    zone(),
  ],
  ['zone $ORIGIN relative', '$ORIGIN sub', [['hostname', 'sub', 'sub.example.com']], zone()],
  ['zone $TTL', '$TTL 1d', [], zone()],
  ['zone relative without origin', 'www IN CNAME web', [], { languageId: 'dns-zone' }],
  [
    'zone absolute without origin',
    'www.example.com. IN CNAME web.example.com.',
    [
      ['hostname', 'www.example.com.', 'www.example.com'],
      ['hostname', 'web.example.com.', 'web.example.com'],
    ],
    { languageId: 'dns-zone' },
  ],
  ['zone HTTPS target', '@ IN HTTPS 1 . alpn=h2', [['hostname', '@', 'example.com']], zone()],
  [
    'zone origin without trailing dot',
    '@ IN NS ns1',
    [
      ['hostname', '@', 'example.com'],
      ['hostname', 'ns1', 'ns1.example.com'],
    ],
    zone('example.com'),
  ],
];

describe('detect: detectInLine', () => {
  it('has a large table', () => assert.ok(cases.length >= 60, `${cases.length} cases`));
  for (const [name, line, expected, context] of cases) {
    it(name, () => {
      const found = detectInLine(line, context);
      for (const d of found) assert.equal(d.text, line.slice(d.start, d.end));
      assert.deepEqual(
        found.map((d) => [d.kind, d.text, d.value]),
        expected,
      );
    });
  }
});

describe('detect: detectAt', () => {
  const line = 'Ask ns1.example.com or 192.0.2.1 now';
  it('finds the item under the cursor', () => {
    assert.equal(detectAt(line, 4)?.value, 'ns1.example.com');
    assert.equal(detectAt(line, 10)?.value, 'ns1.example.com');
    assert.equal(detectAt(line, 25)?.value, '192.0.2.1');
  });
  it('accepts the cursor just after an item', () => {
    assert.equal(detectAt(line, 19)?.value, 'ns1.example.com');
  });
  it('gives undefined between items', () => {
    assert.equal(detectAt(line, 20), undefined);
    assert.equal(detectAt(line, 0), undefined);
    assert.equal(detectAt(line, 999), undefined);
  });
  it('uses the zone context', () => {
    assert.equal(detectAt('www IN CNAME @', 13, zone('example.test.'))?.value, 'example.test');
  });
  it('prefers the item the cursor is inside over the one it follows', () => {
    assert.equal(detectAt('a.example.com,b.example.com', 13)?.value, 'a.example.com');
    assert.equal(detectAt('192.0.2.1 ::1', 10)?.value, '::1');
  });
});
