/**
 * Shell completion scripts for `codewhale completion bash|zsh|fish`, generated from the
 * command tree (so a new subcommand completes without touching this file).
 */
export interface CompletionNode {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly description: string;
  /** Long and short flags, e.g. `--json`, `-w`. */
  readonly options: readonly { readonly flags: readonly string[]; readonly description: string }[];
  /** Values for the first argument (e.g. the event names of `hooks test`). */
  readonly values: readonly string[];
  readonly commands: readonly CompletionNode[];
}

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** Only words that are safe unquoted in every shell reach a script. */
const WORD = /^[A-Za-z0-9_.:@%+=,/-]+$/;
const words = (xs: readonly string[]): string[] => xs.filter((x) => WORD.test(x));

interface Flat {
  readonly path: string;
  readonly node: CompletionNode;
}
function flatten(node: CompletionNode, path = ''): Flat[] {
  return [{ path, node }, ...node.commands.flatMap((c) => flatten(c, path ? `${path} ${c.name}` : c.name))];
}
const candidates = (n: CompletionNode): string[] => words([...n.commands.flatMap((c) => [c.name, ...c.aliases]), ...n.values, ...n.options.flatMap((o) => o.flags.filter((f) => f.startsWith('--')))]);

function bash(root: CompletionNode, bins: readonly string[]): string {
  const fn = `_${root.name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const all = flatten(root);
  const steps = all.flatMap(({ path, node }) => node.commands.flatMap((c) => words([c.name, ...c.aliases]).map((w) => `      "${path}:${w}") path="${path ? `${path} ` : ''}${c.name}" ;;`)));
  const cases = all.map(({ path, node }) => `    "${path}") words="${candidates(node).join(' ')}" ;;`);
  return `# ${root.name} completion for bash.
# Install: ${root.name} completion bash > ~/.local/share/bash-completion/completions/${root.name}
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" w i words=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$path:$w" in
${steps.join('\n')}
    esac
  done
  case "$path" in
${cases.join('\n')}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F ${fn} ${words(bins).join(' ')}
`;
}

function zsh(root: CompletionNode, bins: readonly string[]): string {
  return `#compdef ${words(bins).join(' ')}
# ${root.name} completion for zsh (through zsh's bash completion support).
# Install: ${root.name} completion zsh > "\${fpath[1]}/_${root.name}", or add
# \`source <(${root.name} completion zsh)\` to ~/.zshrc.
autoload -U +X bashcompinit && bashcompinit
${bash(root, bins)}`;
}

const fishText = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fish(root: CompletionNode, bins: readonly string[]): string {
  const lines: string[] = [`# ${root.name} completion for fish.`, `# Install: ${root.name} completion fish > ~/.config/fish/completions/${root.name}.fish`];
  for (const bin of words(bins)) {
    for (const { node } of flatten(root)) {
      const chain = flatten(root)
        .find((f) => f.node === node)!
        .path.split(' ')
        .filter(Boolean);
      const own = node.commands.flatMap((c) => words([c.name, ...c.aliases]));
      const at = chain.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${chain[chain.length - 1]}${own.length ? `; and not __fish_seen_subcommand_from ${own.join(' ')}` : ''}`;
      for (const c of node.commands) for (const w of words([c.name, ...c.aliases])) lines.push(`complete -c ${bin} -f -n ${fishText(at)} -a ${w} -d ${fishText(c.description)}`);
      for (const v of words(node.values)) lines.push(`complete -c ${bin} -f -n ${fishText(at)} -a ${v}`);
      for (const o of node.options) {
        const long = o.flags.find((f) => f.startsWith('--'));
        const short = o.flags.find((f) => /^-[A-Za-z]$/.test(f));
        if (!long || !WORD.test(long)) continue;
        lines.push(`complete -c ${bin} -n ${fishText(at)} -l ${long.slice(2)}${short ? ` -s ${short.slice(1)}` : ''} -d ${fishText(o.description)}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The completion script of `shell` for the tree `root`, registered for each of `bins`. */
export function completionScript(shell: CompletionShell, root: CompletionNode, bins: readonly string[]): string {
  return shell === 'bash' ? bash(root, bins) : shell === 'zsh' ? zsh(root, bins) : fish(root, bins);
}
