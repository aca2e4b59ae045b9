import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { endianness, networkInterfaces } from 'node:os';
import { isIP } from 'node:net';

/**
 * Who is on the other end of a TCP connection to this server, as far as the process tree
 * matters: a process this server started (a tool or hook command, or anything they started
 * that is still in the tree) must never answer an approval or use a token-bearing route, even
 * with a token it found on disk or in an ancestor's environment.
 *
 * Linux only: the client's socket is found in `/proc/net/tcp{,6}` (its local end is our
 * connection's remote end), which also gives the user that owns it: another user's socket is
 * refused. Then only the server's own process and its descendants (found through
 * `/proc/<pid>/task/<tid>/children`) are searched for the socket's inode among their
 * `/proc/<pid>/fd`: the question is only whether a descendant holds it, and a search of every
 * process on the machine would cost a blocked event loop per new connection. A socket the
 * server's own process holds is the server's, even while a child it is starting holds a copy.
 * A descendant whose descriptors cannot be read fails the check closed. Where the kernel has no
 * `children` files, every process's descriptors are searched and each owner's ancestry is
 * walked through `/proc/<pid>/stat`.
 */
export type PeerVerdict =
  /** A process outside this server's process tree (or the server itself), or another machine. */
  | { readonly kind: 'outside'; readonly pids: readonly number[] }
  /** A descendant of this server owns the client socket. */
  | { readonly kind: 'descendant'; readonly pid: number }
  /** A local client whose owner cannot be established (fail closed). */
  | { readonly kind: 'unknown'; readonly reason: string };

export interface ConnectionEnds {
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly localAddress: string;
  readonly localPort: number;
}

/** Whether the peer check can run here. */
export const PEER_CHECK_SUPPORTED = process.platform === 'linux';

const LE = endianness() === 'LE';

function hex32(bytes: readonly number[]): string {
  const ordered = LE ? [...bytes].reverse() : bytes;
  return ordered
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

function ipv6Bytes(address: string): number[] {
  let a = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  let tail: number[] = [];
  if (v4) {
    tail = ipv4Bytes(v4[1]!);
    a = `${a.slice(0, -v4[1]!.length)}0:0`;
  }
  const [head, rest] = a.split('::') as [string, string | undefined];
  const hs = head ? head.split(':') : [];
  const rs = rest !== undefined && rest !== '' ? rest.split(':') : [];
  const groups = rest === undefined ? hs : [...hs, ...Array(8 - hs.length - rs.length).fill('0'), ...rs];
  const bytes: number[] = [];
  for (const g of groups) {
    const n = parseInt(g || '0', 16);
    bytes.push(n >> 8, n & 0xff);
  }
  if (v4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/**
 * How an address:port appears in `/proc/net/tcp` (IPv4, host-order words) or `/proc/net/tcp6`
 * (four host-order 32-bit words), upper-case hex, port big-endian.
 */
export function procNetAddress(address: string, port: number): { table: 'tcp' | 'tcp6'; text: string } {
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  if (isIP(address) === 4) return { table: 'tcp', text: `${hex32(ipv4Bytes(address))}:${portHex}` };
  const bytes = ipv6Bytes(address);
  const words = [0, 4, 8, 12].map((i) => hex32(bytes.slice(i, i + 4))).join('');
  return { table: 'tcp6', text: `${words}:${portHex}` };
}

/** The inode and owning uid of the socket whose local end is `local` and remote end is `remote`, from a `/proc/net/tcp*` table's text. */
export function socketEntry(table: string, local: string, remote: string): { readonly inode: number; readonly uid: number } | null {
  // The table has a line per socket of the namespace (thousands on a busy machine): find the
  // one line by its two addresses, then split only that.
  const key = ` ${local} ${remote} `;
  for (let at = table.indexOf(key); at >= 0; at = table.indexOf(key, at + 1)) {
    const start = table.lastIndexOf('\n', at) + 1;
    const end = table.indexOf('\n', at);
    const f = table
      .slice(start, end < 0 ? undefined : end)
      .trim()
      .split(/\s+/);
    if (f.length < 10 || f[1] !== local || f[2] !== remote) continue;
    const inode = Number(f[9]);
    const uid = Number(f[7]);
    return Number.isInteger(inode) && inode > 0 && Number.isInteger(uid) ? { inode, uid } : null;
  }
  return null;
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The parent pid from a `/proc/<pid>/stat` line (the command name may hold spaces and parentheses). */
export function parentPidOf(stat: string): number | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const ppid = Number(stat.slice(close + 2).split(' ')[1]);
  return Number.isInteger(ppid) ? ppid : null;
}

function isDescendantOf(pid: number, ancestor: number): boolean {
  let p: number | null = pid;
  for (let hops = 0; p !== null && p > 1 && hops < 4096; hops++) {
    p = parentPidOf(readOr(`/proc/${p}/stat`));
    if (p === ancestor) return true;
  }
  return false;
}

/**
 * Whether process `pid` holds the socket with this inode: true, false (also when the process
 * is gone), or null when its descriptors cannot be read (another user's process).
 */
function holds(pid: number, inode: number): boolean | null {
  const target = `socket:[${inode}]`;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? false : null;
  }
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}

let searchEveryone = false;

/** Tests: search every process's descriptors, as where the kernel has no `children` files (`false`: the usual way). */
export function forceFullPeerSearch(on: boolean): void {
  searchEveryone = on;
}

/** Every live descendant of `root`, from the kernel's `children` files; null where there are none (no CONFIG_PROC_CHILDREN). */
function descendantsOf(root: number): number[] | null {
  if (searchEveryone) return null;
  const found: number[] = [];
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      if (pid === root) return null;
      continue; // exited meanwhile
    }
    for (const tid of tasks) {
      let children: string;
      try {
        children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1');
      } catch {
        if (pid === root) return null;
        continue;
      }
      for (const c of children.split(' ')) {
        const child = Number(c);
        if (c !== '' && Number.isInteger(child) && child > 0 && !found.includes(child)) {
          found.push(child);
          queue.push(child);
        }
      }
    }
  }
  return found;
}

/** Every process of this user that holds the socket: the search when there are no `children` files. */
function ownersOf(inode: number): number[] {
  const owners: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (holds(Number(entry), inode) === true) owners.push(Number(entry));
  }
  return owners;
}

function isThisMachine(address: string): boolean {
  const a = address.replace(/^::ffff:/, '');
  if (a === '::1' || /^127\./.test(a)) return true;
  for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) if (i.address === a) return true;
  return false;
}

/** Which process is on the other end of a connection, relative to `serverPid` (default: this process). */
export function peerVerdict(ends: ConnectionEnds, serverPid = process.pid): PeerVerdict {
  // An IPv4 client of a dual-stack listener shows up in the IPv4 table.
  const remote = ends.remoteAddress.replace(/^::ffff:(?=\d+\.)/, '');
  const local = ends.localAddress.replace(/^::ffff:(?=\d+\.)/, '');
  const client = procNetAddress(remote, ends.remotePort);
  const server = procNetAddress(local, ends.localPort);
  const entry = client.table === server.table ? socketEntry(readOr(`/proc/net/${client.table}`), client.text, server.text) : null;
  if (entry === null) {
    if (!isThisMachine(remote)) return { kind: 'outside', pids: [] };
    return { kind: 'unknown', reason: 'the client socket is not in this network namespace' };
  }
  if (typeof process.getuid === 'function' && entry.uid !== process.getuid()) return { kind: 'unknown', reason: 'another user owns the client socket' };
  const { inode } = entry;
  // The server's own process holds the client socket (an embedder's client, or a test): a child
  // started meanwhile has a copy of every descriptor until its exec, which makes it an owner too
  // for that moment. That copy is inherited, not a connection of its own: the client is the server.
  if (holds(serverPid, inode) === true) return { kind: 'outside', pids: [serverPid] };
  const descendants = descendantsOf(serverPid);
  if (descendants !== null) {
    for (const pid of descendants) {
      const held = holds(pid, inode);
      if (held === null) return { kind: 'unknown', reason: `the descriptors of process ${pid}, started by this server, cannot be read` };
      if (held) return { kind: 'descendant', pid };
    }
    return { kind: 'outside', pids: [] };
  }
  const owners = ownersOf(inode);
  if (owners.length === 0) return { kind: 'unknown', reason: 'no process of this user owns the client socket' };
  for (const pid of owners) if (isDescendantOf(pid, serverPid)) return { kind: 'descendant', pid };
  return { kind: 'outside', pids: owners };
}
