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
 * connection's remote end), its inode is matched against every process's `/proc/<pid>/fd`,
 * and each owner's ancestry is walked through `/proc/<pid>/stat`. A socket the server's own
 * process holds is the server's, even while a child it is starting holds a copy.
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

/** The inode of the socket whose local end is `local` and remote end is `remote`, from a `/proc/net/tcp*` table's text. */
export function socketInode(table: string, local: string, remote: string): number | null {
  for (const line of table.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || f[1] !== local || f[2] !== remote) continue;
    const inode = Number(f[9]);
    return Number.isInteger(inode) && inode > 0 ? inode : null;
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

function ownersOf(inode: number): number[] {
  const target = `socket:[${inode}]`;
  const owners: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = readlinkSync(`/proc/${entry}/fd/${fd}`);
      } catch {
        continue;
      }
      if (link === target) {
        owners.push(Number(entry));
        break;
      }
    }
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
  const inode = client.table === server.table ? socketInode(readOr(`/proc/net/${client.table}`), client.text, server.text) : null;
  if (inode === null) {
    if (!isThisMachine(remote)) return { kind: 'outside', pids: [] };
    return { kind: 'unknown', reason: 'the client socket is not in this network namespace' };
  }
  const owners = ownersOf(inode);
  if (owners.length === 0) return { kind: 'unknown', reason: 'no process of this user owns the client socket' };
  // The server's own process holds the client socket (an embedder's client, or a test): a child
  // started meanwhile has a copy of every descriptor until its exec, which makes it an owner too
  // for that moment. That copy is inherited, not a connection of its own: the client is the server.
  if (owners.includes(serverPid)) return { kind: 'outside', pids: owners };
  for (const pid of owners) if (isDescendantOf(pid, serverPid)) return { kind: 'descendant', pid };
  return { kind: 'outside', pids: owners };
}
