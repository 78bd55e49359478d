// Shared by the WHOIS panel (src/webview) and the command line's WHOIS text (src/cli), so both
// explain a status the same way; pure data, no imports.
// Plain-language meanings of domain status values: the EPP codes of RFC 5731 / RFC 3915 and
// their RDAP spellings (RFC 8056, RFC 9083 section 10.2.2), plus common ccTLD values. Keys are
// lower case without spaces, the way the WHOIS result carries status values.

export type StatusTone = 'ok' | 'lock' | 'grace' | 'pending' | 'problem' | 'info';

export interface StatusMeaning {
  /** the usual spelling, e.g. clientTransferProhibited */
  label: string;
  meaning: string;
  tone: StatusTone;
}

const TABLE: Record<string, StatusMeaning> = {
  ok: { label: 'ok', tone: 'ok', meaning: 'Normal state: no pending operations or restrictions.' },
  active: { label: 'active', tone: 'ok', meaning: 'Registered and in use; nothing restricts it.' },
  inactive: {
    label: 'inactive',
    tone: 'problem',
    meaning: 'No name servers are set, so the name does not resolve.',
  },
  addperiod: {
    label: 'addPeriod',
    tone: 'grace',
    meaning: 'Just registered: grace period in which the registrar may delete it for a refund.',
  },
  autorenewperiod: {
    label: 'autoRenewPeriod',
    tone: 'grace',
    meaning: 'Renewed automatically by the registry; the renewal can still be undone.',
  },
  renewperiod: {
    label: 'renewPeriod',
    tone: 'grace',
    meaning: 'Renewed recently; the renewal can still be undone for a refund.',
  },
  transferperiod: {
    label: 'transferPeriod',
    tone: 'grace',
    meaning: 'Moved to a new registrar recently (grace period after a transfer).',
  },
  redemptionperiod: {
    label: 'redemptionPeriod',
    tone: 'problem',
    meaning: 'Deleted by the registrar but still restorable (usually within 30 days), at a fee.',
  },
  pendingcreate: {
    label: 'pendingCreate',
    tone: 'pending',
    meaning: 'A registration request is being processed.',
  },
  pendingdelete: {
    label: 'pendingDelete',
    tone: 'problem',
    meaning: 'About to be purged from the registry; it can no longer be restored.',
  },
  pendingrenew: {
    label: 'pendingRenew',
    tone: 'pending',
    meaning: 'A renewal request is being processed.',
  },
  pendingrestore: {
    label: 'pendingRestore',
    tone: 'pending',
    meaning: 'A restore from redemption was requested and awaits the registrar’s report.',
  },
  pendingtransfer: {
    label: 'pendingTransfer',
    tone: 'pending',
    meaning: 'A transfer to another registrar is in progress.',
  },
  pendingupdate: {
    label: 'pendingUpdate',
    tone: 'pending',
    meaning: 'A change to the registration is being processed.',
  },
  clientdeleteprohibited: {
    label: 'clientDeleteProhibited',
    tone: 'lock',
    meaning: 'The registrar refuses to delete it: protection against accidental deletion.',
  },
  clienthold: {
    label: 'clientHold',
    tone: 'problem',
    meaning: 'Taken out of DNS by the registrar (often unpaid, unverified or disputed).',
  },
  clientrenewprohibited: {
    label: 'clientRenewProhibited',
    tone: 'lock',
    meaning: 'The registrar refuses to renew it (often during a dispute).',
  },
  clienttransferprohibited: {
    label: 'clientTransferProhibited',
    tone: 'lock',
    meaning: 'Locked against transfer to another registrar. Common and harmless (registrar lock).',
  },
  clientupdateprohibited: {
    label: 'clientUpdateProhibited',
    tone: 'lock',
    meaning: 'The registrar refuses changes (contacts, name servers) until the lock is lifted.',
  },
  serverdeleteprohibited: {
    label: 'serverDeleteProhibited',
    tone: 'lock',
    meaning: 'The registry refuses to delete it (registry lock).',
  },
  serverhold: {
    label: 'serverHold',
    tone: 'problem',
    meaning: 'Taken out of DNS by the registry (legal, policy or abuse action).',
  },
  serverrenewprohibited: {
    label: 'serverRenewProhibited',
    tone: 'lock',
    meaning: 'The registry refuses to renew it.',
  },
  servertransferprohibited: {
    label: 'serverTransferProhibited',
    tone: 'lock',
    meaning: 'The registry refuses transfers (registry lock, or a dispute).',
  },
  serverupdateprohibited: {
    label: 'serverUpdateProhibited',
    tone: 'lock',
    meaning: 'The registry refuses changes to the registration (registry lock).',
  },
  // RDAP spellings without the client/server side, and RDAP-only values.
  deleteprohibited: { label: 'delete prohibited', tone: 'lock', meaning: 'Cannot be deleted.' },
  renewprohibited: { label: 'renew prohibited', tone: 'lock', meaning: 'Cannot be renewed.' },
  transferprohibited: {
    label: 'transfer prohibited',
    tone: 'lock',
    meaning: 'Cannot be transferred to another registrar.',
  },
  updateprohibited: { label: 'update prohibited', tone: 'lock', meaning: 'Cannot be changed.' },
  locked: { label: 'locked', tone: 'lock', meaning: 'Changes to the registration are locked.' },
  pendingdeleterestorable: {
    label: 'pending delete restorable',
    tone: 'problem',
    meaning: 'Deleted, still restorable for a short time (redemption).',
  },
  pendingdeletescheduledforrelease: {
    label: 'pending delete scheduled for release',
    tone: 'problem',
    meaning: 'Deleted and about to become available for registration again.',
  },
  obscured: { label: 'obscured', tone: 'info', meaning: 'Some data is hidden for privacy.' },
  private: { label: 'private', tone: 'info', meaning: 'The registration data is not public.' },
  proxy: {
    label: 'proxy',
    tone: 'info',
    meaning: 'Registered through a privacy or proxy service.',
  },
  removed: { label: 'removed', tone: 'info', meaning: 'Some data was removed from this answer.' },
  associated: {
    label: 'associated',
    tone: 'info',
    meaning: 'Linked to other registry objects.',
  },
  validated: { label: 'validated', tone: 'ok', meaning: 'The registrant data was verified.' },
  // Frequent ccTLD values.
  connect: {
    label: 'connect',
    tone: 'ok',
    meaning: 'Registered and delegated in DNS (DENIC and others).',
  },
  registered: { label: 'registered', tone: 'ok', meaning: 'Registered.' },
  free: { label: 'free', tone: 'info', meaning: 'Not registered: available.' },
};

/** The meaning of a status value; registry-specific values get a neutral note. */
export function statusMeaning(status: string): StatusMeaning {
  // Port-43 replies often append the ICANN explanation URL to the code.
  const key = status
    .toLowerCase()
    .replace(/https?:.*$/, '')
    .replace(/[^a-z]/g, '');
  return (
    TABLE[key] ?? {
      label: status,
      tone: 'info',
      meaning: 'Registry-specific status; see the registry’s documentation.',
    }
  );
}
