// The loopback world the demo and the screenshots look at: an authoritative DNS server for the
// sample workspace's zones (example.test, mail.test and the reverse zones; like Knot or NSD it
// refuses names outside them), an RDAP service for WHOIS and a small web site for the panels.
// Nothing leaves the machine.
import * as path from 'node:path';
import { loadZoneFile, startDnsServer, type DnsFixture } from '../support/dns-server';
import { startPanelSite, startRdapSite, type PanelSite } from '../support/panel-site';

const root = path.resolve(__dirname, '..', '..');
export const WORKSPACE = path.join(root, 'test', 'fixtures', 'workspace');
const ZONES = path.join(root, 'test', 'fixtures', 'zones');
const ZONE_FILES = [
  'example.test.zone',
  'mail.test.zone',
  '2.0.192.in-addr.arpa.zone',
  '8.b.d.0.1.0.0.2.ip6.arpa.zone',
];
const SERVED =
  /(?:^|\.)(?:example\.test|mail\.test|2\.0\.192\.in-addr\.arpa|8\.b\.d\.0\.1\.0\.0\.2\.ip6\.arpa)\.?$/i;

/**
 * Where the DNS server listens when it can: port 53 of a loopback address of its own, so the
 * pictures show a nameserver as a user would write one (no test port). Port 53 needs root (or
 * the capability); otherwise, or when another run holds it, any free port.
 */
const NAMESERVER_HOST = '127.53.0.1';

export interface DemoFixtures {
  dns: DnsFixture;
  /** the DNS server as hostlens.dns.server takes it: without the port when that is 53 */
  nameserver: string;
  site: PanelSite;
  /** the extension host's environment: WHOIS from the loopback RDAP service */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startDemoFixtures(): Promise<DemoFixtures> {
  const records = ZONE_FILES.flatMap((f) => loadZoneFile(path.join(ZONES, f)));
  const behaviour = ({ name }: { name: string }) => (SERVED.test(name) ? undefined : 'refused');
  const dns = await startDnsServer({ records, behaviour, host: NAMESERVER_HOST, port: 53 }).catch(
    () => startDnsServer({ records, behaviour }),
  );
  const rdap = await startRdapSite();
  const site = await startPanelSite();
  return {
    dns,
    nameserver: dns.port === 53 ? dns.host : dns.address,
    site,
    env: { HOSTLENS_RDAP_BOOTSTRAP: rdap.bootstrap, HOSTLENS_WHOIS_SERVER: '127.0.0.1:1' },
    close: async () => {
      await Promise.all([dns.close(), rdap.close(), site.close()]);
    },
  };
}
