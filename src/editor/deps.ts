// What commands, hovers and views share. Built once in activate(); services() is a function
// because the backend can change while the extension runs (settings, token).
import type { Log } from './log';
import type { Services } from '../contract/services';
import type { Settings } from './settings';
import type { History } from './views/history';
import type { ResultsTreeProvider } from './views/resultsTree';

export interface Deps {
  services(): Services;
  settings(): Settings;
  history: History;
  results: ResultsTreeProvider;
  log: Log;
}
