// Service names for WKS (RFC 1035 section 3.4.2). BIND reads them through getservbyname, so a
// name means what the loading server's services file says; an editor cannot see that file. The
// table here is the IANA "Service Name and Transport Protocol Port Number Registry" names (with
// their usual aliases) that Debian's netbase services file (6.4) lists: the common ground of
// the systems servers run on (fuller files, as Red Hat's, carry the whole registry). A name not
// here is refused with the advice to write the port number, which reads the same everywhere.
//
// One service a line: name, port, protocols (t TCP, u UDP), the aliases it has on those
// protocols; looked up in order, the first line with the name (or an alias) for the protocol
// wins, as getservbyname does.
const TABLE = `
tcpmux 1 t
echo 7 tu
discard 9 tu sink null
systat 11 t users
daytime 13 tu
netstat 15 t
qotd 17 t quote
chargen 19 tu ttytst source
ftp-data 20 t
ftp 21 t
fsp 21 u fspd
ssh 22 t
telnet 23 t
smtp 25 t mail
time 37 tu timserver
whois 43 t nicname
tacacs 49 tu
domain 53 tu
bootps 67 u
bootpc 68 u
tftp 69 u
gopher 70 t
finger 79 t
http 80 t www
kerberos 88 tu kerberos5 krb5 kerberos-sec
iso-tsap 102 t tsap
acr-nema 104 t dicom
pop3 110 t pop-3
sunrpc 111 tu portmapper
auth 113 t authentication tap ident
nntp 119 t readnews untp
ntp 123 u
epmap 135 t loc-srv
netbios-ns 137 u
netbios-dgm 138 u
netbios-ssn 139 t
imap2 143 t imap
snmp 161 tu
snmp-trap 162 tu snmptrap
cmip-man 163 tu
cmip-agent 164 tu
mailq 174 t
xdmcp 177 u
bgp 179 t
smux 199 t
qmtp 209 t
z3950 210 t wais
ipx 213 u
ptp-event 319 u
ptp-general 320 u
pawserv 345 t
zserv 346 t
rpc2portmap 369 tu
codaauth2 370 tu
clearcase 371 u Clearcase
ldap 389 tu
svrloc 427 tu
https 443 tu
snpp 444 t
microsoft-ds 445 t
kpasswd 464 tu
submissions 465 t ssmtp smtps urd
saft 487 t
isakmp 500 u
rtsp 554 tu
nqs 607 t
asf-rmcp 623 u
qmqp 628 t
ipp 631 t
ldp 646 tu
exec 512 t
biff 512 u comsat
login 513 t
who 513 u whod
shell 514 t cmd syslog
syslog 514 u
printer 515 t spooler
talk 517 u
ntalk 518 u
route 520 u router routed
gdomap 538 tu
uucp 540 t uucpd
klogin 543 t
kshell 544 t krcmd
dhcpv6-client 546 u
dhcpv6-server 547 u
afpovertcp 548 t
nntps 563 t snntp
submission 587 t
ldaps 636 tu
tinc 655 tu
silc 706 t
kerberos-adm 749 t
domain-s 853 tu
rsync 873 t
ftps-data 989 t
ftps 990 t
telnets 992 t
imaps 993 t
pop3s 995 t
socks 1080 t
proofd 1093 t
rootd 1094 t
openvpn 1194 tu
rmiregistry 1099 t
lotusnote 1352 t lotusnotes
ms-sql-s 1433 t
ms-sql-m 1434 u
ingreslock 1524 t
datametrics 1645 tu old-radius
sa-msg-port 1646 tu old-radacct
kermit 1649 t
groupwise 1677 t
l2f 1701 u l2tp
radius 1812 tu
radius-acct 1813 tu radacct
cisco-sccp 2000 t
nfs 2049 tu
gnunet 2086 tu
rtcm-sc104 2101 tu
gsigatekeeper 2119 t
gris 2135 t
cvspserver 2401 t
venus 2430 tu
venus-se 2431 tu
codasrv 2432 tu
codasrv-se 2433 tu
mon 2583 tu
dict 2628 t
f5-globalsite 2792 t
gsiftp 2811 t
gpsd 2947 t
gds-db 3050 t gds_db
icpv2 3130 u icp
isns 3205 tu
iscsi-target 3260 t
mysql 3306 t
ms-wbt-server 3389 t
nut 3493 tu
distcc 3632 t
daap 3689 t
svn 3690 t subversion
suucp 4031 t
sysrqd 4094 t
sieve 4190 t
epmd 4369 t
remctl 4373 t
f5-iquery 4353 t
ntske 4460 t
ipsec-nat-t 4500 u
iax 4569 u
mtn 4691 t
radmin-port 4899 t
sip 5060 tu
sip-tls 5061 tu
xmpp-client 5222 t jabber-client
xmpp-server 5269 t jabber-server
cfengine 5308 t
mdns 5353 u
postgresql 5432 t postgres
freeciv 5556 t rptp
amqps 5671 t
amqp 5672 t
x11 6000 t x11-0
x11-1 6001 t
x11-2 6002 t
x11-3 6003 t
x11-4 6004 t
x11-5 6005 t
x11-6 6006 t
x11-7 6007 t
gnutella-svc 6346 tu
gnutella-rtr 6347 tu
redis 6379 t
sge-qmaster 6444 t sge_qmaster
sge-execd 6445 t sge_execd
mysql-proxy 6446 t
babel 6696 u
ircs-u 6697 t
bbs 7000 t
afs3-fileserver 7000 u
afs3-callback 7001 u
afs3-prserver 7002 u
afs3-vlserver 7003 u
afs3-kaserver 7004 u
afs3-volser 7005 u
afs3-bos 7007 u
afs3-update 7008 u
afs3-rmtsys 7009 u
font-service 7100 t xfs
http-alt 8080 t webcache
puppet 8140 t
bacula-dir 9101 t
bacula-fd 9102 t
bacula-sd 9103 t
xmms2 9667 t
nbd 10809 t
zabbix-agent 10050 t
zabbix-trapper 10051 t
amanda 10080 t
dicom 11112 t
hkp 11371 t
db-lsp 17500 t
dcap 22125 t
gsidcap 22128 t
wnn6 22273 t
kerberos4 750 tu kerberos-iv kdc
kerberos-master 751 u kerberos_master
kerberos-master 751 t
passwd-server 752 u passwd_server
krb-prop 754 t krb_prop krb5_prop hprop
zephyr-srv 2102 u
zephyr-clt 2103 u
zephyr-hm 2104 u
iprop 2121 t
supfilesrv 871 t
supfiledbg 1127 t
poppassd 106 t
moira-db 775 t moira_db
moira-update 777 t moira_update
moira-ureg 779 u moira_ureg
spamd 783 t
skkserv 1178 t
predict 1210 u
rmtcfg 1236 t
xtel 1313 t
xtelw 1314 t
zebrasrv 2600 t
zebra 2601 t
ripd 2602 t
ripngd 2603 t
ospfd 2604 t
bgpd 2605 t
ospf6d 2606 t
ospfapi 2607 t
isisd 2608 t
fax 4557 t
hylafax 4559 t
munin 4949 t lrrd
rplay 5555 u
nrpe 5666 t
nsca 5667 t
canna 5680 t
syslog-tls 6514 t
sane-port 6566 t sane saned
ircd 6667 t
zope-ftp 8021 t
tproxy 8081 t
omniorb 8088 t
clc-build-daemon 8990 t
xinetd 9098 t
git 9418 t
zope 9673 t
webmin 10000 t
kamanda 10081 t
amandaidx 10082 t
amidxtape 10083 t
sgi-cmsd 17001 u
sgi-crsd 17002 u
sgi-gcd 17003 u
sgi-cad 17004 t
binkp 24554 t
asp 27374 tu
csync2 30865 t
dircproxy 57000 t
tfido 60177 t
fido 60179 t
`;

interface Service {
  port: number;
  protocols: string;
}

const BY_NAME = new Map<string, Service[]>();
for (const line of TABLE.trim().split('\n')) {
  const [name, port, protocols, ...aliases] = line.split(' ');
  for (const key of [name, ...aliases]) {
    const list = BY_NAME.get(key) ?? [];
    list.push({ port: Number(port), protocols });
    BY_NAME.set(key, list);
  }
}

/**
 * The port of service `name` for IP protocol `protocol`, as BIND finds it: the name in lower
 * case, looked up for TCP (6) or UDP (17), or for either under any other protocol.
 */
export function servicePortByName(name: string, protocol: number): number | undefined {
  const transport = protocol === 6 ? 't' : protocol === 17 ? 'u' : undefined;
  const found = BY_NAME.get(name.toLowerCase())?.find(
    (s) => transport === undefined || s.protocols.includes(transport),
  );
  return found?.port;
}

/** Every name of the table with its lines, for tests. */
export function serviceNames(): ReadonlyMap<string, readonly Service[]> {
  return BY_NAME;
}
