/** Rows of the runtime store, as the code sees them (camelCase; the wire is snake_case). */

export type TurnStatus = 'in_progress' | 'completed' | 'interrupted' | 'failed';
export type ItemKind = 'user_message' | 'agent_message' | 'agent_reasoning' | 'tool_call' | 'error' | 'status';
export type ItemStatus = 'in_progress' | 'completed' | 'failed' | 'interrupted';
export type ApprovalStatus = 'pending' | 'decided' | 'expired';

export interface ThreadRecord {
  readonly id: string;
  /** The hook session id (`sess_…`) of the thread's session, kept across restarts. */
  readonly sessionId: string | null;
  readonly workspace: string;
  readonly mode: string;
  readonly posture: string;
  readonly model: string | null;
  readonly activeTurnId: string | null;
  /** The stored conversation (the engine's `ConversationSnapshot`) to resume from. */
  readonly conversation: unknown;
  /** Events of this thread up to this seq were pruned. */
  readonly prunedThroughSeq: number;
  /** When the thread was archived (hidden from the default list), or `null`. */
  readonly archivedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface TurnRecord {
  readonly id: string;
  readonly threadId: string;
  readonly status: TurnStatus;
  readonly prompt: string;
  readonly mode: string;
  readonly posture: string;
  readonly model: string | null;
  readonly error: string | null;
  readonly errorCategory: string | null;
  readonly usage: unknown;
  readonly createdAt: string;
  readonly completedAt: string | null;
}

export interface ItemRecord {
  readonly id: string;
  readonly threadId: string;
  readonly turnId: string;
  readonly kind: ItemKind;
  readonly status: ItemStatus;
  /** One line, at most 280 code points. */
  readonly summary: string;
  readonly detail: string | null;
  readonly metadata: unknown;
  /** The `tool_call_before` decision record of a tool item. */
  readonly decision: unknown;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type ApprovalScope = 'once' | 'session' | 'always';

/** The rule "always" writes to `permissions.toml` (shown display-safe), or why none can be. */
export interface AlwaysChoice {
  readonly rule: { readonly tool: string; readonly command: string | null; readonly path: string | null; readonly workspace: string } | null;
  readonly reason: string | null;
}

/** The engine's write preview as stored (the engine's `WritePreview`). */
export interface WritePreviewRecord {
  readonly path: string;
  readonly kind: 'diff' | 'create' | 'none';
  readonly text: string;
  readonly added: number;
  readonly removed: number;
  readonly truncated: boolean;
  readonly note: string | null;
}

export interface ApprovalRecord {
  readonly id: string;
  readonly threadId: string;
  readonly turnId: string;
  readonly itemId: string | null;
  readonly tool: string;
  /** `posture` or `hook`. */
  readonly reason: string;
  readonly summary: string;
  /** `reason: hook`: the `tool_call_before` hook that asked (its name) and its reason. */
  readonly hookName: string | null;
  readonly hookReason: string | null;
  readonly status: ApprovalStatus;
  readonly decision: 'allow' | 'deny' | null;
  readonly remember: boolean;
  /** How a client allowed it: once, for the session, or always (a permissions rule); `null` otherwise. */
  readonly scope: ApprovalScope | null;
  /** What "always" would remember, or why it cannot; `null` for approvals stored before it existed. */
  readonly always: AlwaysChoice | null;
  /** A write's diff (or new file) preview, bounded and display-safe; `null` for other tools. */
  readonly preview: WritePreviewRecord | null;
  readonly requestedAt: string;
  readonly expiresAt: string;
  readonly decidedAt: string | null;
}

export type UserInputStatus = 'pending' | 'answered' | 'expired';

/** One question of a `request_user_input` call, as the engine asks it. */
export interface UserInputQuestionRecord {
  readonly id: string;
  readonly header: string;
  readonly question: string;
  readonly options: readonly { readonly label: string; readonly description?: string }[];
  readonly allowFreeText: boolean;
  readonly multiSelect: boolean;
}

/** Questions the model asked a person (`request_user_input`), answered by any client. */
export interface UserInputRecord {
  readonly id: string;
  readonly threadId: string;
  readonly turnId: string;
  readonly itemId: string | null;
  readonly questions: readonly UserInputQuestionRecord[];
  readonly status: UserInputStatus;
  /** Answers keyed by question id: one label (or free text), or several for a multi-select question. */
  readonly answers: Readonly<Record<string, string | readonly string[]>> | null;
  readonly requestedAt: string;
  readonly expiresAt: string;
  readonly answeredAt: string | null;
}

/** One row of the event log. */
export interface StoredEvent {
  readonly seq: number;
  readonly threadId: string;
  readonly turnId: string | null;
  readonly itemId: string | null;
  readonly event: string;
  readonly payload: Record<string, unknown>;
  readonly createdAt: string;
}
