// The status meanings live in src/contract/epp.ts, shared with the command line.
export { statusMeaning, type StatusMeaning, type StatusTone } from '../contract/epp';
