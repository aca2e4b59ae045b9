import type { ConversationSnapshot, HostEvent, HostListener, Mode, Posture, ReloadReport, SessionHostApi, SessionSnapshot, SteerResult, SubmitResult } from '@codewhale/engine';

/**
 * A small typed stand-in for the engine's SessionHost, for component and controller tests only
 * (end-to-end tests drive the real binary and the real host). It records the verbs called and
 * lets a test emit host events and change the snapshot.
 */
export class FakeHost implements SessionHostApi {
  readonly sessionId = 'sess_fake0001';
  readonly profile = 'tui' as const;
  readonly calls: string[] = [];
  private snap: SessionSnapshot = {
    sessionId: 'sess_fake0001',
    profile: 'tui',
    workspace: '/ws',
    provider: 'replay',
    model: 'replay-model',
    state: 'idle',
    reason: null,
    turnId: null,
    mode: 'work',
    posture: 'ask',
    sessionTrust: false,
    busy: false,
    todos: [],
    totals: { sessionTokens: 0, conversationTokens: 0, inputTokens: 0, outputTokens: 0 },
    queued: [],
    queuedCount: 0,
    activeHook: null,
    subagents: [],
    lastTurnStatus: null,
    closed: false,
  };
  private readonly listeners = new Set<HostListener>();
  reloadReport: ReloadReport = { changed: true, hookCount: 2, notes: [] };

  subscribe = (l: HostListener) => {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  };
  getSnapshot = () => this.snap;

  emit(e: HostEvent): void {
    for (const l of [...this.listeners]) l(e);
  }
  update(change: Partial<SessionSnapshot>): void {
    this.snap = { ...this.snap, ...change };
    this.emit({ type: 'snapshot' });
  }

  async start() {
    this.calls.push('start');
  }
  async submit(text: string): Promise<SubmitResult> {
    this.calls.push(`submit:${text}`);
    return { kind: 'blocked', reason: 'fake' };
  }
  queue(text: string) {
    this.calls.push(`queue:${text}`);
    this.update({ queued: [...this.snap.queued, text], queuedCount: this.snap.queuedCount + 1 });
  }
  dequeue(index?: number) {
    this.calls.push(`dequeue:${index ?? 'all'}`);
    const removed = index === undefined ? this.snap.queued : this.snap.queued.slice(index, index + 1);
    const queued = index === undefined ? [] : this.snap.queued.filter((_, i) => i !== index);
    this.update({ queued, queuedCount: queued.length });
    return removed;
  }
  async steer(text: string): Promise<SteerResult> {
    this.calls.push(`steer:${text}`);
    return { kind: 'steered', text };
  }
  cancel() {
    this.calls.push('cancel');
  }
  setMode(mode: Mode) {
    this.calls.push(`mode:${mode}`);
    const from = this.snap.mode;
    this.update({ mode });
    this.emit({ type: 'mode_changed', from, to: mode });
  }
  setSessionTrust(on: boolean) {
    this.calls.push(`trust:${on ? 'on' : 'off'}`);
    this.update({ sessionTrust: on });
  }

  setPosture(posture: Posture) {
    this.calls.push(`posture:${posture}`);
    this.update({ posture });
  }
  reload() {
    this.calls.push('reload');
    return this.reloadReport;
  }
  conversation(): ConversationSnapshot {
    return { version: 1 as const, sessionId: this.sessionId, mode: this.snap.mode, posture: this.snap.posture, history: [], todos: [], totals: this.snap.totals };
  }
  clear() {
    this.calls.push('clear');
  }
  async end() {
    this.calls.push('end');
    this.update({ closed: true });
  }
  async dispose() {
    this.calls.push('dispose');
  }
}
