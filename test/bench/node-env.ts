// Whole-process rows that compare a Node command with a peer that is not Node (named-checkzone)
// run ours without NODE_EXTRA_CA_CERTS, which some machines (this one) set for every process:
// Node 20 reads and parses those certificates at every start, before any script runs
// (nodejs/node#40524), about 45 ms and 400 M instructions here (`node -e 0`: 510 M instructions
// with it, 93 M without), which a default install does not pay, no command line can avoid, and the
// peer does not read. Rows against bare `node` keep the environment as it is: both sides pay it.
// Each such row keeps the figure with the variable as inherited in its notes.

/** The environment less the certificates Node 20 loads at every start. */
export function withoutExtraCaCerts(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Whether this machine sets the variable, so a row has an inherited figure to note. */
export const inheritsExtraCaCerts = process.env.NODE_EXTRA_CA_CERTS !== undefined;
