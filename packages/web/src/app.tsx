import { createRuntimeClient, everyPage, RuntimeApiError, type Approval, type RuntimeEvent, type Thread, type UserInput } from '@codewhale/runtime-client';
import type { VNode } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { LiveEvents, type LinkState } from './live.js';
import { Markdown } from './markdown.js';
import { applyApprovalEvent, applyEvent, applyUserInputEvent, diffLineKind, emptyTranscript, fromItems, headTail, type Entry, type Transcript } from './transcript.js';
import { Visible } from './visible-text.js';

/** Same origin, the session cookie: the page never sees the token. */
const client = createRuntimeClient({ baseUrl: location.origin });

type Auth = 'checking' | 'login' | 'in';

const errorText = (e: unknown): string => (e instanceof RuntimeApiError ? e.message : e instanceof Error ? e.message : String(e));
const threadIdFromHash = (): string | null => {
  const m = /^#\/t\/([A-Za-z0-9_-]{1,100})$/.exec(location.hash);
  return m ? m[1]! : null;
};

export function App(): VNode {
  const [auth, setAuth] = useState<Auth>('checking');
  const [loginError, setLoginError] = useState<string | null>(null);
  const [boot, setBoot] = useState(0);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      // A one-time login URL (`codewhale serve --open`): the code is in the fragment, which no request carries.
      const m = /^#login=([A-Za-z0-9_-]{1,200})$/.exec(location.hash);
      if (m) {
        history.replaceState(null, '', `${location.pathname}#/`);
        try {
          await client.createSession({ code: m[1]! });
        } catch (e) {
          if (!cancelled) setLoginError(`The login link did not work: ${errorText(e)}`);
        }
      }
      try {
        const { authenticated } = await client.getSession();
        if (!cancelled) setAuth(authenticated ? 'in' : 'login');
      } catch (e) {
        if (!cancelled) {
          setAuth('login');
          setLoginError(errorText(e));
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [boot]);

  if (auth === 'checking')
    return (
      <main class="center" aria-busy="true">
        <p>Connecting…</p>
      </main>
    );
  if (auth === 'login')
    return (
      <Login
        error={loginError}
        onDone={() => {
          setLoginError(null);
          setAuth('checking');
          setBoot((b) => b + 1);
        }}
      />
    );
  return (
    <Workspace
      onLoggedOut={() => {
        setAuth('login');
      }}
    />
  );
}

function Login({ error, onDone }: { readonly error: string | null; readonly onDone: () => void }): VNode {
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(error);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await client.createSession({ token: token.trim() });
      setToken('');
      onDone();
    } catch (err) {
      setMessage(err instanceof RuntimeApiError && err.status === 401 ? 'That token is not right.' : errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="center">
      <form class="login card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Codewhale</h1>
        <p>
          Paste the token of <code>codewhale serve</code> (the file it names on start), or open the link <code>codewhale serve --open</code> prints.
        </p>
        <label for="token">Token</label>
        <input id="token" type="password" autocomplete="current-password" value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} required />
        {message && (
          <p class="error" role="alert">
            {message}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy || token.trim() === ''}>
          Log in
        </button>
      </form>
    </main>
  );
}

/** Everything after login: the threads, the open thread, approvals, and the one event stream. */
function Workspace({ onLoggedOut }: { readonly onLoggedOut: () => void }): VNode {
  const [threads, setThreads] = useState<ReadonlyMap<string, Thread>>(new Map());
  const [showArchived, setShowArchived] = useState(false);
  const [approvals, setApprovals] = useState<ReadonlyMap<string, Approval>>(new Map());
  const [questions, setQuestions] = useState<ReadonlyMap<string, UserInput>>(new Map());
  const [link, setLink] = useState<LinkState>('connecting');
  const [selected, setSelected] = useState<string | null>(threadIdFromHash());
  const [transcript, setTranscript] = useState<Transcript>(emptyTranscript);
  const [notice, setNotice] = useState<string | null>(null);
  const [queued, setQueued] = useState<Readonly<Record<string, string>>>({});
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  /** While a thread's log loads, its live events wait here (applied after, in order). */
  const pendingLive = useRef<RuntimeEvent[] | null>(null);
  const queuedRef = useRef(queued);
  queuedRef.current = queued;

  useEffect(() => {
    const onHash = () => setSelected(threadIdFromHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  const refreshThread = useCallback(async (id: string) => {
    try {
      const { thread } = await client.getThread(id);
      setThreads((m) => new Map(m).set(thread.id, thread));
    } catch (e) {
      if (e instanceof RuntimeApiError && e.status === 404)
        setThreads((m) => {
          const n = new Map(m);
          n.delete(id);
          return n;
        });
    }
  }, []);

  const loadThreads = useCallback(async (archived: boolean) => {
    const all = new Map<string, Thread>();
    for await (const t of everyPage((cursor) => client.listThreads({ limit: 200, archived, ...(cursor ? { cursor } : {}) }), 'threads')) all.set(t.id, t);
    setThreads(all);
  }, []);

  // Start: the head of the log first, then the lists, then the stream from that head (what
  // happens in between arrives on the stream and is applied again, harmlessly).
  useEffect(() => {
    let live: LiveEvents | null = null;
    let stopped = false;
    (async () => {
      try {
        const { head_seq } = await client.listEvents({ limit: 1 });
        await loadThreads(false);
        const pending = new Map<string, Approval>();
        for await (const a of everyPage((cursor) => client.listApprovals({ status: 'pending', limit: 200, ...(cursor ? { cursor } : {}) }), 'approvals')) pending.set(a.id, a);
        const asked = new Map<string, UserInput>();
        for await (const u of everyPage((cursor) => client.listUserInputs({ status: 'pending', limit: 200, ...(cursor ? { cursor } : {}) }), 'user_inputs')) asked.set(u.id, u);
        if (stopped) return;
        setApprovals(pending);
        setQuestions(asked);
        live = new LiveEvents(
          client,
          head_seq,
          (ev) => onEventRef.current(ev),
          (s) => (s === 'logged_out' ? onLoggedOut() : setLink(s)),
        );
      } catch (e) {
        if (e instanceof RuntimeApiError && e.status === 401) onLoggedOut();
        else setNotice(errorText(e));
      }
    })();
    return () => {
      stopped = true;
      live?.close();
    };
  }, [loadThreads, onLoggedOut]);

  useEffect(() => {
    void loadThreads(showArchived);
  }, [showArchived, loadThreads]);

  const send = useCallback(async (threadId: string, prompt: string) => {
    try {
      await client.createTurn(threadId, { prompt });
    } catch (e) {
      setNotice(errorText(e));
    }
  }, []);

  const onEventRef = useRef<(ev: RuntimeEvent) => void>(() => {});
  onEventRef.current = (ev: RuntimeEvent) => {
    setApprovals((m) => {
      const next = applyApprovalEvent(m, ev);
      if (next !== m && ev.event === 'approval.required') notify(ev.payload.approval);
      return next;
    });
    setQuestions((m) => applyUserInputEvent(m, ev));
    if (ev.event.startsWith('thread.') || ev.event.startsWith('turn.') || ev.event.startsWith('approval.')) {
      if (ev.event === 'thread.deleted')
        setThreads((m) => {
          const n = new Map(m);
          n.delete(ev.thread_id);
          return n;
        });
      else void refreshThread(ev.thread_id);
    }
    if (ev.thread_id === selectedRef.current) {
      if (pendingLive.current) pendingLive.current.push(ev);
      else setTranscript((t) => applyEvent(t, ev));
    }
    if (ev.event === 'turn.completed') {
      const next = queuedRef.current[ev.thread_id];
      if (next !== undefined) {
        setQueued((q) => {
          const { [ev.thread_id]: _sent, ...rest } = q;
          return rest;
        });
        void send(ev.thread_id, next);
      }
    }
  };

  // Open a thread: its whole event log (page by page), then the live events that came meanwhile.
  useEffect(() => {
    if (!selected) return;
    let cancelled = false;
    pendingLive.current = [];
    setTranscript(emptyTranscript);
    (async () => {
      let t = emptyTranscript;
      try {
        let cursor: string | undefined;
        for (let first = true; ; first = false) {
          const page = await client.listEvents({ thread_id: selected, limit: 500, ...(cursor ? { cursor } : {}) });
          if (first && page.stale) {
            // The oldest events were pruned: start from the stored items instead.
            const items = [];
            for await (const it of everyPage((c) => client.listItems(selected, { limit: 500, ...(c ? { cursor: c } : {}) }), 'items')) items.push(it);
            t = fromItems(items);
          }
          for (const ev of page.events) t = applyEvent(t, ev);
          if (page.next_cursor === null) break;
          cursor = page.next_cursor;
        }
      } catch (e) {
        if (!cancelled) setNotice(errorText(e));
      }
      if (cancelled) return;
      for (const ev of pendingLive.current ?? []) t = applyEvent(t, ev);
      pendingLive.current = null;
      setTranscript(t);
    })();
    return () => {
      cancelled = true;
      pendingLive.current = null;
    };
  }, [selected]);

  // The tab says when something waits for an answer.
  const waiting = approvals.size;
  const asking = questions.size;
  useEffect(() => {
    document.title = waiting > 0 ? `(${waiting}) waiting for approval — Codewhale` : asking > 0 ? `(${asking}) waiting for an answer — Codewhale` : 'Codewhale';
  }, [waiting, asking]);

  const thread = selected ? (threads.get(selected) ?? transcript.thread) : null;
  const list = useMemo(() => [...threads.values()].filter((t) => showArchived === (t.archived_at !== null)).sort((a, b) => (a.created_at < b.created_at ? 1 : -1)), [threads, showArchived]);

  return (
    <div class={`layout${selected ? ' has-thread' : ''}`}>
      <header class="top">
        <a href="#/" class="brand">
          Codewhale
        </a>
        <span class={`link link-${link}`} role="status" aria-live="polite">
          {link === 'live' ? 'live' : link === 'reconnecting' ? 'reconnecting…' : 'connecting…'}
        </span>
        <NotifyButton />
        <button
          type="button"
          class="quiet"
          onClick={async () => {
            await client.deleteSession().catch(() => {});
            onLoggedOut();
          }}
        >
          Log out
        </button>
      </header>
      {notice && (
        <p class="error banner" role="alert">
          {notice}{' '}
          <button type="button" class="quiet" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </p>
      )}
      <nav class="threads" aria-label="Threads">
        <NewThread onCreated={(t) => (setThreads((m) => new Map(m).set(t.id, t)), (location.hash = `#/t/${t.id}`))} onError={setNotice} />
        <div class="list-head">
          <h2>{showArchived ? 'Archived threads' : 'Threads'}</h2>
          <button type="button" class="quiet" onClick={() => setShowArchived((v) => !v)} aria-pressed={showArchived}>
            {showArchived ? 'Show active' : 'Show archived'}
          </button>
        </div>
        {list.length === 0 ? (
          <p class="muted">No threads yet.</p>
        ) : (
          <ul class="thread-list">
            {list.map((t) => (
              <li key={t.id}>
                <a href={`#/t/${t.id}`} class={`thread-row${t.id === selected ? ' current' : ''}`} aria-current={t.id === selected ? 'page' : undefined}>
                  <StatusBadge thread={t} waiting={[...approvals.values()].some((a) => a.thread_id === t.id)} />
                  <span class="ws" title={t.workspace}>
                    <Visible text={t.workspace} />
                  </span>
                  <span class="meta">
                    {t.mode} · {t.posture} · <time dateTime={t.created_at}>{new Date(t.created_at).toLocaleString()}</time>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </nav>
      <main class="thread" id="main">
        {selected && thread ? (
          <ThreadView
            thread={thread}
            transcript={transcript}
            approvals={[...approvals.values()].filter((a) => a.thread_id === thread.id)}
            questions={[...questions.values()].filter((u) => u.thread_id === thread.id)}
            queued={queued[thread.id] ?? null}
            onQueue={(p) => setQueued((q) => ({ ...q, [thread.id]: p }))}
            onUnqueue={() =>
              setQueued((q) => {
                const { [thread.id]: _gone, ...rest } = q;
                return rest;
              })
            }
            onSend={(p) => send(thread.id, p)}
            onError={setNotice}
          />
        ) : selected ? (
          <p class="muted">Loading the thread…</p>
        ) : (
          <div class="empty">
            <h1>Threads</h1>
            <p class="muted">Pick a thread, or start one.</p>
            {waiting > 0 && <AllApprovals approvals={[...approvals.values()]} onError={setNotice} />}
            {[...questions.values()].map((u) => (
              <div key={u.id}>
                <a href={`#/t/${u.thread_id}`}>Open the thread</a>
                <QuestionCard input={u} onError={setNotice} />
              </div>
            ))}
          </div>
        )}
      </main>
    </div>
  );
}

function notify(a: Approval): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || document.visibilityState === 'visible') return;
  try {
    new Notification('Codewhale: a thread waits for approval', { body: `${a.tool}: ${a.summary.slice(0, 120)}`, tag: a.id });
  } catch {
    // Some browsers allow notifications only from a service worker; the tab title still says it.
  }
}

function NotifyButton(): VNode | null {
  const [perm, setPerm] = useState(typeof Notification === 'undefined' ? 'denied' : Notification.permission);
  if (perm !== 'default') return null;
  return (
    <button type="button" class="quiet" onClick={async () => setPerm(await Notification.requestPermission())}>
      Notify me
    </button>
  );
}

function StatusBadge({ thread, waiting }: { readonly thread: Thread; readonly waiting: boolean }): VNode {
  const status = waiting || thread.status === 'waiting' ? 'waiting' : thread.status === 'active' ? 'running' : 'idle';
  const label = status === 'waiting' ? 'waiting for approval' : status;
  return <span class={`badge badge-${status}`}>{label}</span>;
}

function NewThread({ onCreated, onError }: { readonly onCreated: (t: Thread) => void; readonly onError: (m: string) => void }): VNode {
  const [workspace, setWorkspace] = useState('');
  const [mode, setMode] = useState<'plan' | 'work' | 'operate'>('work');
  const [posture, setPosture] = useState<'ask' | 'auto-review' | 'full-access'>('ask');
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="new-thread card"
      aria-label="New thread"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          const { thread } = await client.createThread({ mode, posture, ...(workspace.trim() ? { workspace: workspace.trim() } : {}) });
          onCreated(thread);
        } catch (err) {
          onError(errorText(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label for="nt-ws">Workspace</label>
      <input id="nt-ws" placeholder="the server's workspace" value={workspace} onInput={(e) => setWorkspace((e.target as HTMLInputElement).value)} />
      <div class="row">
        <span class="field">
          <label for="nt-mode">Mode</label>
          <select id="nt-mode" value={mode} onChange={(e) => setMode((e.target as HTMLSelectElement).value as typeof mode)}>
            <option value="plan">plan</option>
            <option value="work">work</option>
            <option value="operate">operate</option>
          </select>
        </span>
        <span class="field">
          <label for="nt-posture">Posture</label>
          <select id="nt-posture" value={posture} onChange={(e) => setPosture((e.target as HTMLSelectElement).value as typeof posture)}>
            <option value="ask">ask</option>
            <option value="auto-review">auto-review</option>
            <option value="full-access">full-access</option>
          </select>
        </span>
      </div>
      <button type="submit" class="primary" disabled={busy}>
        New thread
      </button>
    </form>
  );
}

function ThreadView(props: {
  readonly thread: Thread;
  readonly transcript: Transcript;
  readonly approvals: readonly Approval[];
  readonly questions: readonly UserInput[];
  readonly queued: string | null;
  readonly onQueue: (p: string) => void;
  readonly onUnqueue: () => void;
  readonly onSend: (p: string) => Promise<void>;
  readonly onError: (m: string) => void;
}): VNode {
  const { thread, transcript } = props;
  const [showHooks, setShowHooks] = useState(false);
  const running = thread.active_turn_id !== null;
  const toolItems = useMemo(() => {
    const m = new Map<string, Entry>();
    for (const id of transcript.order) {
      const e = transcript.entries[id]!;
      if (e.kind === 'tool_call') m.set(id, e);
    }
    return m;
  }, [transcript]);
  return (
    <section class="thread-view" aria-labelledby="thread-title">
      <div class="thread-head">
        <h1 id="thread-title">
          <Visible text={thread.workspace} />
        </h1>
        <p class="meta">
          <StatusBadge thread={thread} waiting={props.approvals.length > 0} /> {thread.mode} · {thread.posture} · {thread.id}
        </p>
        <div class="row">
          <button type="button" class="quiet" aria-expanded={showHooks} aria-controls="hooks-panel" onClick={() => setShowHooks((v) => !v)}>
            {showHooks ? 'Hide hooks' : 'Hooks'}
          </button>
          {thread.archived_at === null ? (
            <button type="button" class="quiet" disabled={running} onClick={() => client.archiveThread(thread.id).catch((e) => props.onError(errorText(e)))}>
              Archive
            </button>
          ) : (
            <button type="button" class="quiet" onClick={() => client.unarchiveThread(thread.id).catch((e) => props.onError(errorText(e)))}>
              Unarchive
            </button>
          )}
        </div>
      </div>
      {showHooks && <HooksPanel threadId={thread.id} />}
      {props.approvals.map((a) => (
        <ApprovalCard key={a.id} approval={a} item={a.item_id ? (toolItems.get(a.item_id) ?? null) : null} onError={props.onError} />
      ))}
      {props.questions.map((u) => (
        <QuestionCard key={u.id} input={u} onError={props.onError} />
      ))}
      <ol class="transcript" aria-label="Transcript" aria-live="polite">
        {transcript.order.map((id) => (
          <EntryView key={id} entry={transcript.entries[id]!} />
        ))}
      </ol>
      <Composer thread={thread} running={running} queued={props.queued} onQueue={props.onQueue} onUnqueue={props.onUnqueue} onSend={props.onSend} onError={props.onError} />
    </section>
  );
}

function EntryView({ entry }: { readonly entry: Entry }): VNode {
  switch (entry.kind) {
    case 'user_message':
      return (
        <li class="entry user" data-item={entry.id}>
          <span class="who">You</span>
          <div class="bubble">
            <Visible text={entry.text} />
          </div>
        </li>
      );
    case 'agent_message':
      return (
        <li class="entry agent" data-item={entry.id} aria-busy={entry.status === 'in_progress'}>
          <span class="who">Codewhale</span>
          <div class="bubble">
            <Markdown text={entry.text} />
          </div>
        </li>
      );
    case 'agent_reasoning':
      return (
        <li class="entry reasoning" data-item={entry.id}>
          <details>
            <summary>Reasoning</summary>
            <Markdown text={entry.text} />
          </details>
        </li>
      );
    case 'tool_call':
      return <ToolCall entry={entry} />;
    default:
      return (
        <li class={`entry ${entry.kind}`} data-item={entry.id} role={entry.kind === 'error' ? 'alert' : undefined}>
          <Visible text={entry.text} />
        </li>
      );
  }
}

function ToolCall({ entry }: { readonly entry: Entry }): VNode {
  const meta = (entry.item?.metadata ?? {}) as Record<string, unknown>;
  const result = (meta.result ?? null) as Record<string, unknown> | null;
  const exit = typeof result?.exit_code === 'number' ? result.exit_code : null;
  const duration = typeof meta.duration_ms === 'number' ? meta.duration_ms : null;
  const tool = typeof meta.tool === 'string' ? meta.tool : (entry.item?.summary ?? 'tool');
  const input = meta.input === undefined ? null : JSON.stringify(meta.input, null, 2);
  const output = entry.status === 'in_progress' ? '' : entry.text;
  return (
    <li class={`entry tool status-${entry.status}`} data-item={entry.id}>
      <div class="tool-head">
        <span class="tool-name">
          <Visible text={tool} />
        </span>
        <span class={`badge badge-${entry.status}`}>{entry.status.replace('_', ' ')}</span>
        {duration !== null && <span class="meta">{duration < 1000 ? `${duration} ms` : `${(duration / 1000).toFixed(1)} s`}</span>}
        {exit !== null && <span class="meta">exit {exit}</span>}
      </div>
      {input && (
        <pre class="code input">
          <Visible text={input} />
        </pre>
      )}
      {entry.item?.decision && <DecisionView record={entry.item.decision} />}
      {output && <Output text={output} />}
    </li>
  );
}

function Output({ text }: { readonly text: string }): VNode {
  const [all, setAll] = useState(false);
  const ht = headTail(text);
  if (all || ht.omitted === 0)
    return (
      <pre class="code output">
        <Visible text={text} />
      </pre>
    );
  return (
    <div class="output-cut">
      <pre class="code output">
        <Visible text={ht.head} />
      </pre>
      <button type="button" class="quiet" onClick={() => setAll(true)}>
        Show all ({ht.omitted} more lines)
      </button>
      <pre class="code output">
        <Visible text={ht.tail} />
      </pre>
    </div>
  );
}

type Decision = NonNullable<Entry['item']>['decision'];

function DecisionView({ record }: { readonly record: NonNullable<Decision> }): VNode {
  return (
    <details class="decision" open={record.decision !== 'allow'}>
      <summary>
        Hooks: <strong class={`verdict verdict-${record.decision}`}>{record.decision}</strong> · {record.hooks.length} matched
        {record.message ? (
          <>
            {' '}
            · <Visible text={record.message} />
          </>
        ) : null}
      </summary>
      {record.hooks.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Hooks that matched this tool call</caption>
            <thead>
              <tr>
                <th scope="col">Hook</th>
                <th scope="col">Outcome</th>
                <th scope="col">Why</th>
                <th scope="col">Exit</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {record.hooks.map((h) => (
                <tr key={h.index}>
                  <td>
                    <Visible text={h.label} />
                    <span class="meta"> ({h.source})</span>
                  </td>
                  <td>
                    {h.outcome.replace(/_/g, ' ')}
                    {h.rewrote_input ? ' · rewrote input' : ''}
                    {h.added_context ? ' · added context' : ''}
                  </td>
                  <td>{h.detail ? <Visible text={h.detail} /> : '—'}</td>
                  <td>{h.exit_code ?? '—'}</td>
                  <td>{h.duration_ms} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <dl class="decision-facts">
        <dt>Original input</dt>
        <dd>
          <pre class="code">
            <Visible text={record.input.original} />
          </pre>
        </dd>
        {record.input.rewritten !== null && (
          <>
            <dt>Rewritten input</dt>
            <dd>
              <pre class="code">
                <Visible text={record.input.rewritten} />
              </pre>
            </dd>
          </>
        )}
        {record.additional_context !== null && (
          <>
            <dt>Added context</dt>
            <dd>
              <Visible text={record.additional_context} />
            </dd>
          </>
        )}
        <dt>Hook-set digest</dt>
        <dd>
          <code>{record.hook_set_digest ?? 'none'}</code>
        </dd>
      </dl>
    </details>
  );
}

function ApprovalCard({ approval, item, onError }: { readonly approval: Approval; readonly item: Entry | null; readonly onError: (m: string) => void }): VNode {
  const [busy, setBusy] = useState(false);
  const input = (item?.item?.metadata as { input?: unknown } | null)?.input;
  const always = approval.always;
  const answer = async (decision: 'allow' | 'deny', scope: 'once' | 'session' | 'always' = 'once') => {
    setBusy(true);
    try {
      await client.answerApproval(approval.id, decision === 'deny' ? { decision } : { decision, scope });
    } catch (e) {
      onError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="approval card" aria-labelledby={`ap-${approval.id}`} data-approval={approval.id}>
      <h2 id={`ap-${approval.id}`}>
        Approve <Visible text={approval.tool} />?
      </h2>
      <p>
        {approval.hook ? (
          <>
            The hook{' '}
            <strong>
              <Visible text={approval.hook.name} />
            </strong>{' '}
            asks{approval.hook.reason ? ': ' : '.'}
            {approval.hook.reason && <Visible text={approval.hook.reason} />}
          </>
        ) : approval.reason === 'posture' ? (
          'The thread’s posture asks before this tool runs.'
        ) : (
          'A permission rule asks before this tool runs.'
        )}
      </p>
      <pre class="code command">
        <Visible text={approval.summary} />
      </pre>
      {approval.preview && <WritePreviewView preview={approval.preview} id={approval.id} />}
      {input !== undefined && JSON.stringify(input) !== approval.summary && (
        <details>
          <summary>Full input</summary>
          <pre class="code">
            <Visible text={JSON.stringify(input, null, 2)} />
          </pre>
        </details>
      )}
      <div class="row actions">
        <button type="button" class="primary" disabled={busy} onClick={() => answer('allow')}>
          Allow once
        </button>
        <button type="button" disabled={busy} onClick={() => answer('allow', 'session')}>
          Allow for session
        </button>
        {always?.rule && (
          <button type="button" disabled={busy} aria-describedby={`always-${approval.id}`} onClick={() => answer('allow', 'always')}>
            Always
          </button>
        )}
        <button type="button" class="danger" disabled={busy} onClick={() => answer('deny')}>
          Deny
        </button>
      </div>
      {always && (
        <p class="meta always" id={`always-${approval.id}`}>
          {always.rule ? (
            <>
              Always adds to <code>{always.file}</code>: allow{' '}
              <code>
                <Visible text={always.rule.tool} />
              </code>
              {always.rule.command !== null && (
                <>
                  {' '}
                  running exactly{' '}
                  <code>
                    <Visible text={always.rule.command} />
                  </code>
                </>
              )}
              {always.rule.path !== null && (
                <>
                  {' '}
                  on exactly{' '}
                  <code>
                    <Visible text={always.rule.path} />
                  </code>
                </>
              )}{' '}
              in{' '}
              <code>
                <Visible text={always.rule.workspace} />
              </code>
              , from now on.
            </>
          ) : (
            <>
              No “Always” for this call: <Visible text={always.reason ?? 'no rule can remember it'} />
            </>
          )}
        </p>
      )}
      <p class="meta">
        Expires <time dateTime={approval.expires_at}>{new Date(approval.expires_at).toLocaleTimeString()}</time>
      </p>
    </section>
  );
}

/** A write's diff (or the new file), built by the server; every line shown as text. */
function WritePreviewView({ preview, id }: { readonly preview: NonNullable<Approval['preview']>; readonly id: string }): VNode {
  const title = preview.kind === 'create' ? `New file, ${preview.added} lines` : preview.kind === 'diff' ? `Changes: +${preview.added} −${preview.removed} lines` : 'No preview';
  return (
    <figure class="write-preview" aria-labelledby={`wp-${id}`}>
      <figcaption id={`wp-${id}`}>
        {title}:{' '}
        <code>
          <Visible text={preview.path} />
        </code>
        {preview.truncated && ' (cut: only the start is shown)'}
      </figcaption>
      {preview.note !== null && (
        <p class="meta">
          <Visible text={preview.note} />
        </p>
      )}
      {preview.text !== '' && (
        <pre class={`code diff diff-${preview.kind}`} data-diff={preview.kind}>
          {preview.text.split('\n').map((line, i) => (
            <span key={i} class={preview.kind === 'diff' ? `dl dl-${diffLineKind(line)}` : 'dl'}>
              <Visible text={line} />
              {'\n'}
            </span>
          ))}
        </pre>
      )}
    </figure>
  );
}

/**
 * Questions the model asked (`request_user_input`): one group per question — a radio group,
 * or checkboxes when it takes several answers, plus free text where it allows it. Sent once;
 * the card goes when any client's answer (or the timeout) arrives on the stream.
 */
function QuestionCard({ input, onError }: { readonly input: UserInput; readonly onError: (m: string) => void }): VNode {
  const [picked, setPicked] = useState<Readonly<Record<string, readonly string[]>>>({});
  const [free, setFree] = useState<Readonly<Record<string, string>>>({});
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const answerOf = (q: UserInput['questions'][number]): string | string[] | null => {
    const text = (free[q.id] ?? '').trim();
    const chosen = [...(picked[q.id] ?? [])];
    if (q.multi_select) {
      const all = text !== '' ? [...chosen, text] : chosen;
      return all.length > 0 ? all : null;
    }
    return text !== '' ? text : (chosen[0] ?? null);
  };
  const complete = input.questions.every((q) => answerOf(q) !== null);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!complete || sent) return;
    setBusy(true);
    try {
      await client.answerUserInput(input.id, { answers: Object.fromEntries(input.questions.map((q) => [q.id, answerOf(q)!])) });
      setSent(true);
    } catch (err) {
      onError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (qid: string, label: string, multi: boolean, on: boolean) =>
    setPicked((p) => {
      const now = p[qid] ?? [];
      return { ...p, [qid]: multi ? (on ? [...now.filter((x) => x !== label), label] : now.filter((x) => x !== label)) : [label] };
    });
  return (
    <form class="question card" aria-labelledby={`q-${input.id}`} data-user-input={input.id} onSubmit={submit}>
      <h2 id={`q-${input.id}`}>The agent asks</h2>
      {input.questions.map((q) => (
        <fieldset key={q.id}>
          <legend>
            <strong>
              <Visible text={q.header} />
            </strong>
            : <Visible text={q.question} />
          </legend>
          {q.options.map((o, i) => {
            const id = `q-${input.id}-${q.id}-${i}`;
            return (
              <div class="option" key={o.label}>
                <input
                  id={id}
                  type={q.multi_select ? 'checkbox' : 'radio'}
                  name={`q-${input.id}-${q.id}`}
                  checked={(picked[q.id] ?? []).includes(o.label) && (q.multi_select || (free[q.id] ?? '').trim() === '')}
                  disabled={busy || sent}
                  onChange={(e) => {
                    toggle(q.id, o.label, q.multi_select, (e.target as HTMLInputElement).checked);
                    if (!q.multi_select) setFree((f) => ({ ...f, [q.id]: '' }));
                  }}
                />
                <label for={id}>
                  <Visible text={o.label} />
                  {o.description !== undefined && (
                    <span class="meta">
                      {' '}
                      — <Visible text={o.description} />
                    </span>
                  )}
                </label>
              </div>
            );
          })}
          {q.allow_free_text && (
            <div class="option">
              <label for={`q-${input.id}-${q.id}-text`}>{q.multi_select ? 'Also, in your words' : 'Or, in your words'}</label>
              <input
                id={`q-${input.id}-${q.id}-text`}
                type="text"
                value={free[q.id] ?? ''}
                disabled={busy || sent}
                maxLength={2000}
                onInput={(e) => setFree((f) => ({ ...f, [q.id]: (e.target as HTMLInputElement).value }))}
              />
            </div>
          )}
        </fieldset>
      ))}
      <div class="row actions">
        <button type="submit" class="primary" disabled={busy || sent || !complete}>
          {sent ? 'Answered' : 'Answer'}
        </button>
      </div>
      <p class="meta">
        Expires <time dateTime={input.expires_at}>{new Date(input.expires_at).toLocaleTimeString()}</time>
      </p>
    </form>
  );
}

function AllApprovals({ approvals, onError }: { readonly approvals: readonly Approval[]; readonly onError: (m: string) => void }): VNode {
  return (
    <section aria-label="Waiting for approval">
      <h2>Waiting for approval</h2>
      {approvals.map((a) => (
        <div key={a.id}>
          <a href={`#/t/${a.thread_id}`}>Open the thread</a>
          <ApprovalCard approval={a} item={null} onError={onError} />
        </div>
      ))}
    </section>
  );
}

function Composer(props: {
  readonly thread: Thread;
  readonly running: boolean;
  readonly queued: string | null;
  readonly onQueue: (p: string) => void;
  readonly onUnqueue: () => void;
  readonly onSend: (p: string) => Promise<void>;
  readonly onError: (m: string) => void;
}): VNode {
  const [text, setText] = useState('');
  const archived = props.thread.archived_at !== null;
  const submit = async (e: Event) => {
    e.preventDefault();
    const prompt = text.trim();
    if (!prompt) return;
    setText('');
    if (props.running) props.onQueue(prompt);
    else await props.onSend(prompt);
  };
  return (
    <form class="composer" onSubmit={submit} aria-label="Send a message">
      {props.queued !== null && (
        <p class="queued">
          Queued for when this turn ends: <q>{props.queued}</q>{' '}
          <button type="button" class="quiet" onClick={props.onUnqueue}>
            Remove
          </button>
        </p>
      )}
      <label for="prompt" class="sr-only">
        Message
      </label>
      <textarea
        id="prompt"
        rows={3}
        value={text}
        disabled={archived}
        placeholder={archived ? 'This thread is archived.' : props.running ? 'A turn is running: your message waits for it.' : 'Ask Codewhale…'}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
        }}
      />
      <div class="row">
        <button type="submit" class="primary" disabled={archived || text.trim() === ''}>
          {props.running ? 'Queue' : 'Send'}
        </button>
        {props.running && (
          <button type="button" class="danger" onClick={() => client.interruptTurn(props.thread.id, props.thread.active_turn_id!).catch((e) => props.onError(errorText(e)))}>
            Cancel turn
          </button>
        )}
      </div>
    </form>
  );
}

interface HookRow {
  readonly event?: string;
  readonly label?: string;
  readonly name?: string;
  readonly command_preview?: string;
  readonly fires_on?: unknown;
  readonly fires_on_runtime?: boolean;
}
interface HookProblem {
  readonly severity?: string;
  readonly event?: string | null;
  readonly label?: string | null;
  readonly detail?: string;
}

function HooksPanel({ threadId }: { readonly threadId: string }): VNode {
  const [data, setData] = useState<Record<string, unknown> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    client
      .getHooks({ thread_id: threadId })
      .then(setData)
      .catch((e) => setError(errorText(e)));
  }, [threadId]);
  if (error)
    return (
      <p class="error" id="hooks-panel">
        {error}
      </p>
    );
  if (!data)
    return (
      <p class="muted" id="hooks-panel">
        Loading hooks…
      </p>
    );
  const hooks = (Array.isArray(data.hooks) ? data.hooks : []) as HookRow[];
  const problems = (Array.isArray(data.problems) ? data.problems : []) as HookProblem[];
  const byEvent = new Map<string, HookRow[]>();
  for (const h of hooks) byEvent.set(h.event ?? '?', [...(byEvent.get(h.event ?? '?') ?? []), h]);
  return (
    <section class="hooks card" id="hooks-panel" aria-label="Live hooks">
      <h2>Hooks of this thread</h2>
      <p class="meta">
        {data.source === 'session' ? 'The hooks this thread’s session runs.' : 'The hooks this thread would load.'} Digest <code>{String(data.hook_set_digest ?? 'none')}</code>
        {data.pending_reload === true && <> · the files changed since the session loaded them</>}
      </p>
      {hooks.length === 0 && <p class="muted">No hooks.</p>}
      {[...byEvent].map(([event, rows]) => (
        <div key={event}>
          <h3>
            <code>{event}</code>
          </h3>
          <ul>
            {rows.map((h, i) => (
              <li key={i}>
                <strong>
                  <Visible text={h.label ?? h.name ?? '(unnamed)'} />
                </strong>{' '}
                {h.fires_on_runtime === false && <span class="badge">not on the runtime</span>}
                {h.command_preview && (
                  <code class="preview">
                    <Visible text={h.command_preview} />
                  </code>
                )}
                {h.fires_on !== undefined && (
                  <span class="meta">
                    {' '}
                    fires on: <Visible text={Array.isArray(h.fires_on) ? h.fires_on.join(', ') : String(h.fires_on)} />
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {problems.length > 0 && (
        <>
          <h3>Problems</h3>
          <ul>
            {problems.map((p, i) => (
              <li key={i} class="error">
                {p.severity}: {p.label ? <Visible text={p.label} /> : null} <Visible text={p.detail ?? ''} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
