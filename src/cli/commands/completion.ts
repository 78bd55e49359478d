// `hostlens completion bash|zsh|fish`: a completion script generated from the operation table
// (src/contract/operations.ts), the extra commands and the record types, so a parameter
// added to the table completes without anyone editing a script.
import { LookupError } from '../../contract/errors';
import { OPERATIONS } from '../../contract/operations';
import { RECORD_TYPES } from '../../contract/shapes';
import { COMMANDS, type Command, type CommandRun } from '../commands';
import { FORMATS, OUTPUT_OPTIONS } from '../output';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export interface CommandSpec {
  name: string;
  summary: string;
  /** --options that take a value */
  valued: string[];
  /** --options that are switches */
  switches: string[];
  /** words offered as positional arguments after the first one (record types for query) */
  positionals: readonly string[];
}

/** Values offered after an option, wherever it appears. */
const OPTION_VALUES: Record<string, readonly string[]> = {
  '--types': RECORD_TYPES,
  '--format': FORMATS,
};
const OUTPUT_SWITCHES = OUTPUT_OPTIONS.filter((o) => o !== '--format');

export const run: CommandRun = (args, io, command) => {
  const shell = args[0];
  if (args.length !== 1 || !SHELLS.includes(shell as Shell))
    throw new LookupError(
      'invalid_argument',
      `Name a shell: bash, zsh or fish\nusage: ${command.usage}`,
    );
  io.write(completionScript(shell as Shell, commandSpecs(COMMANDS)));
  return Promise.resolve(0);
};

export function commandSpecs(commands: readonly Command[]): CommandSpec[] {
  const operations: CommandSpec[] = OPERATIONS.map((op) => ({
    name: op.name,
    summary: op.summary,
    // A flag (--dnssec) takes no value: after it come more options or types, not a file name.
    valued: [...op.params.filter((p) => !p.flag).map((p) => `--${p.name}`), '--format'],
    switches: [...op.params.filter((p) => p.flag).map((p) => `--${p.name}`), ...OUTPUT_SWITCHES],
    positionals: op.name === 'query' ? RECORD_TYPES : [],
  }));
  const others: CommandSpec[] = commands
    .filter((command) => command.name !== 'completion')
    .map((command) => {
      const { valued, switches } = optionsOfUsage(command.usage);
      return {
        name: command.name,
        summary: command.summary,
        valued: [...valued, '--format'],
        switches: [...switches, ...OUTPUT_SWITCHES],
        positionals: [],
      };
    });
  const completion: CommandSpec = {
    name: 'completion',
    summary: 'print a shell completion script',
    valued: [],
    switches: [],
    positionals: SHELLS,
  };
  return [...operations, ...others, completion];
}

/** Options named in a usage line; one followed by a value placeholder takes a value. */
function optionsOfUsage(usage: string): { valued: string[]; switches: string[] } {
  const valued: string[] = [];
  const switches: string[] = [];
  for (const m of usage.matchAll(/(--[a-z][a-z0-9-]*)( +[^\s[\]-][^\s\]]*)?/g)) {
    const list = m[2] !== undefined ? valued : switches;
    if (!list.includes(m[1])) list.push(m[1]);
  }
  return { valued, switches };
}

export function completionScript(shell: Shell, specs: CommandSpec[]): string {
  if (shell === 'bash') return bash(specs);
  if (shell === 'zsh') return zsh(specs);
  return fish(specs);
}

const words = (list: readonly string[]) => list.join(' ');
const single = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function valuedOptions(specs: CommandSpec[]): string[] {
  return [...new Set(specs.flatMap((s) => s.valued))].filter((o) => !(o in OPTION_VALUES));
}

function bash(specs: CommandSpec[]): string {
  const cases = specs.map((s) => {
    const positional =
      s.positionals.length === 0
        ? ''
        : `\n      [[ $cur != -* && $COMP_CWORD -ge ${s.name === 'completion' ? 2 : 3} ]] && opts="$opts ${words(s.positionals)}"`;
    return `    ${s.name.replace(/-/g, '_')})\n      opts="${words([...s.valued, ...s.switches])}"${positional}\n      ;;`;
  });
  return `# bash completion for hostlens. Load it with: eval "$(hostlens completion bash)"
# or save it as ~/.local/share/bash-completion/completions/hostlens
_hostlens() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} opts=""
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "${words(specs.map((s) => s.name))} help --help --version" -- "$cur"))
    return
  fi
  case $prev in
${Object.entries(OPTION_VALUES)
  .map(([o, v]) => `    ${o}) COMPREPLY=($(compgen -W "${words(v)}" -- "$cur")); return ;;`)
  .join('\n')}
    ${valuedOptions(specs).join('|')}) COMPREPLY=(); return ;;
  esac
  case \${COMP_WORDS[1]//-/_} in
${cases.join('\n')}
  esac
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o default -F _hostlens hostlens
`;
}

function zsh(specs: CommandSpec[]): string {
  const describe = specs.map((s) => single(`${s.name}:${s.summary}`)).join(' ');
  const cases = specs.map((s) => {
    const positional =
      s.positionals.length === 0
        ? ''
        : `\n      if [[ $PREFIX != -* ]] && (( CURRENT >= ${s.name === 'completion' ? 3 : 4} )); then compadd -- ${words(s.positionals)}; fi`;
    return `    ${s.name.replace(/-/g, '_')})\n      compadd -- ${words([...s.valued, ...s.switches])}${positional}\n      ;;`;
  });
  return `#compdef hostlens
# zsh completion for hostlens. Load it with: source <(hostlens completion zsh)
# or save it as _hostlens in a directory of your $fpath
_hostlens() {
  if (( CURRENT == 2 )); then
    local -a commands=(${describe})
    _describe 'command' commands
    return
  fi
  case \${words[CURRENT-1]} in
${Object.entries(OPTION_VALUES)
  .map(([o, v]) => `    ${o}) compadd -- ${words(v)}; return ;;`)
  .join('\n')}
    ${valuedOptions(specs).join('|')}) _default; return ;;
  esac
  case \${words[2]//-/_} in
${cases.join('\n')}
  esac
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _hostlens "$@"
else
  compdef _hostlens hostlens
fi
`;
}

function fish(specs: CommandSpec[]): string {
  const lines = [
    '# fish completion for hostlens. Load it with: hostlens completion fish | source',
    '# or save it as ~/.config/fish/completions/hostlens.fish',
    'complete -c hostlens -f',
  ];
  for (const s of specs)
    lines.push(
      `complete -c hostlens -n __fish_use_subcommand -a ${s.name} -d ${single(s.summary)}`,
    );
  for (const s of specs) {
    const when = `-n ${single(`__fish_seen_subcommand_from ${s.name}`)}`;
    for (const option of s.valued) {
      const values = OPTION_VALUES[option];
      lines.push(
        `complete -c hostlens ${when} -l ${option.slice(2)} ${values ? `-x -a ${single(words(values))}` : '-r'}`,
      );
    }
    for (const option of s.switches)
      lines.push(`complete -c hostlens ${when} -l ${option.slice(2)}`);
    if (s.positionals.length > 0)
      lines.push(`complete -c hostlens ${when} -a ${single(words(s.positionals))}`);
  }
  return `${lines.join('\n')}\n`;
}
