// Messages of named-checkzone that name a line but do not stop the load: the zone
// differentials leave them out of the lines BIND refuses.
export const BIND_WARNINGS = [
  /bad owner name \(check-names\)/,
  /: warning: /,
  /ignoring out-of-zone data/,
  /TTL set to prior TTL/,
  /non-terminal wildcard/,
  /file does not end with newline/,
  /old style DNSSEC/,
  /using SOA MINTTL instead/,
  /\$DATE in future/,
  // an RRSIG whose expiration is past (dns_master_load warns; the zone loads)
  /signature has expired/,
];
