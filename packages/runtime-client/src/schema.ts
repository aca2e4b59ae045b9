/**
 * Generated from the Codewhale Runtime API's OpenAPI document by scripts/generate.mjs
 * (openapi-typescript). Do not edit: change the server's schemas and rebuild.
 */
export type paths = {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** liveness (public); "stopping" during a graceful stop */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** approvals across threads, oldest first, a page at a time */
        get: operations["listApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** one approval */
        get: operations["getApproval"];
        put?: never;
        /** answer a pending approval */
        post: operations["answerApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** the stored events (all threads or one) as JSON pages, oldest first */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** every thread's events in one stream: replay after the cursor, then live */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/hooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** the hooks list model as JSON */
        get: operations["getHooks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** this document */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runtime/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** server facts (public) */
        get: operations["getRuntimeInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** whether the request is logged in (public; never 401) */
        get: operations["getSession"];
        put?: never;
        /** log a browser in (public): the token, or a one-time code from `serve --open`, for an HttpOnly SameSite=Strict session cookie */
        post: operations["createSession"];
        /** log a browser out (public): the session cookie is cleared */
        delete: operations["deleteSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/threads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** threads, newest first, a page at a time */
        get: operations["listThreads"];
        put?: never;
        /** create a thread */
        post: operations["createThread"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/threads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** a thread with its turns and pending approvals */
        get: operations["getThread"];
        put?: never;
        post?: never;
        /** delete an idle thread and everything of it (thread.deleted) */
        delete: operations["deleteThread"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/threads/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** hide an idle thread from the default list */
        post: operations["archiveThread"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/threads/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** one thread's events: replay after the cursor, then live */
        get: operations["streamThreadEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/threads/{id}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** a thread's items, oldest first, a page at a time */
        get: operations["listItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/threads/{id}/turns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** a thread's turns, oldest first, a page at a time */
        get: operations["listTurns"];
        put?: never;
        /** start a turn (it runs in the background and ends with turn.completed) */
        post: operations["createTurn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/threads/{id}/turns/{turn}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** one turn with its items */
        get: operations["getTurn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/threads/{id}/turns/{turn}/interrupt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** interrupt the running turn */
        post: operations["interruptTurn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/threads/{id}/turns/{turn}/steer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** add text to the running turn */
        post: operations["steerTurn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/threads/{id}/unarchive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** bring an archived thread back */
        post: operations["unarchiveThread"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user-inputs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** questions the model asked (request_user_input), across threads, oldest first */
        get: operations["listUserInputs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user-inputs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** one set of questions */
        get: operations["getUserInput"];
        put?: never;
        /** answer pending questions (every question, by its id) */
        post: operations["answerUserInput"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        Approval: {
            /** @description what "always" would remember; null for approvals stored by an older server */
            always: {
                /**
                 * @description the file beside the server's config.toml
                 * @constant
                 */
                file: "permissions.toml";
                /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                reason: string | null;
                /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                rule: {
                    command: string | null;
                    path: string | null;
                    tool: string;
                    workspace: string;
                } | null;
            } | null;
            decided_at: string | null;
            decision: ("allow" | "deny") | null;
            /** @description RFC 3339 with milliseconds and offset */
            expires_at: string;
            /** @description reason "hook": the tool_call_before hook that asked, and why */
            hook: {
                name: string;
                reason: string | null;
            } | null;
            id: string;
            item_id: string | null;
            /** @description write and edit calls: what the call would change */
            preview: {
                added: number;
                /**
                 * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                 * @enum {string}
                 */
                kind: "diff" | "create" | "none";
                note: string | null;
                path: string;
                removed: number;
                /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                text: string;
                truncated: boolean;
            } | null;
            /** @enum {string} */
            reason: "posture" | "hook" | "permission";
            /** @description allowed for the session or always */
            remember: boolean;
            /** @description RFC 3339 with milliseconds and offset */
            requested_at: string;
            /** @description how a client allowed it; null while pending and for a denial */
            scope: ("once" | "session" | "always") | null;
            /** @enum {string} */
            status: "pending" | "decided" | "expired";
            summary: string;
            thread_id: string;
            tool: string;
            turn_id: string;
        };
        ApprovalBody: {
            /** @enum {string} */
            decision: "allow" | "deny";
            /** @description allow: true is scope "session" (the older spelling) */
            remember?: boolean;
            /**
             * @description allow: once (the default), for the rest of the session, or always: write the rule the approval's `always` shows to permissions.toml and apply it at once (422 when no rule can be written)
             * @enum {string}
             */
            scope?: "once" | "session" | "always";
        };
        ApprovalPage: {
            approvals: {
                /** @description what "always" would remember; null for approvals stored by an older server */
                always: {
                    /**
                     * @description the file beside the server's config.toml
                     * @constant
                     */
                    file: "permissions.toml";
                    /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                    reason: string | null;
                    /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                    rule: {
                        command: string | null;
                        path: string | null;
                        tool: string;
                        workspace: string;
                    } | null;
                } | null;
                decided_at: string | null;
                decision: ("allow" | "deny") | null;
                /** @description RFC 3339 with milliseconds and offset */
                expires_at: string;
                /** @description reason "hook": the tool_call_before hook that asked, and why */
                hook: {
                    name: string;
                    reason: string | null;
                } | null;
                id: string;
                item_id: string | null;
                /** @description write and edit calls: what the call would change */
                preview: {
                    added: number;
                    /**
                     * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                     * @enum {string}
                     */
                    kind: "diff" | "create" | "none";
                    note: string | null;
                    path: string;
                    removed: number;
                    /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                    text: string;
                    truncated: boolean;
                } | null;
                /** @enum {string} */
                reason: "posture" | "hook" | "permission";
                /** @description allowed for the session or always */
                remember: boolean;
                /** @description RFC 3339 with milliseconds and offset */
                requested_at: string;
                /** @description how a client allowed it; null while pending and for a denial */
                scope: ("once" | "session" | "always") | null;
                /** @enum {string} */
                status: "pending" | "decided" | "expired";
                summary: string;
                thread_id: string;
                tool: string;
                turn_id: string;
            }[];
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        };
        ApprovalResult: {
            approval: {
                /** @description what "always" would remember; null for approvals stored by an older server */
                always: {
                    /**
                     * @description the file beside the server's config.toml
                     * @constant
                     */
                    file: "permissions.toml";
                    /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                    reason: string | null;
                    /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                    rule: {
                        command: string | null;
                        path: string | null;
                        tool: string;
                        workspace: string;
                    } | null;
                } | null;
                decided_at: string | null;
                decision: ("allow" | "deny") | null;
                /** @description RFC 3339 with milliseconds and offset */
                expires_at: string;
                /** @description reason "hook": the tool_call_before hook that asked, and why */
                hook: {
                    name: string;
                    reason: string | null;
                } | null;
                id: string;
                item_id: string | null;
                /** @description write and edit calls: what the call would change */
                preview: {
                    added: number;
                    /**
                     * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                     * @enum {string}
                     */
                    kind: "diff" | "create" | "none";
                    note: string | null;
                    path: string;
                    removed: number;
                    /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                    text: string;
                    truncated: boolean;
                } | null;
                /** @enum {string} */
                reason: "posture" | "hook" | "permission";
                /** @description allowed for the session or always */
                remember: boolean;
                /** @description RFC 3339 with milliseconds and offset */
                requested_at: string;
                /** @description how a client allowed it; null while pending and for a denial */
                scope: ("once" | "session" | "always") | null;
                /** @enum {string} */
                status: "pending" | "decided" | "expired";
                summary: string;
                thread_id: string;
                tool: string;
                turn_id: string;
            };
        };
        CreateThreadBody: {
            /** @enum {string} */
            mode?: "plan" | "work" | "operate" | "act" | "agent" | "auto" | "yolo";
            model?: string;
            /** @enum {string} */
            posture?: "ask" | "suggest" | "on-request" | "untrusted" | "auto" | "auto-review" | "auto_review" | "bypass" | "full-access" | "full_access" | "yolo";
            /** @description an existing directory (default: the server workspace) */
            workspace?: string;
        };
        CreateTurnBody: {
            /** @enum {string} */
            mode?: "plan" | "work" | "operate" | "act" | "agent" | "auto" | "yolo";
            model?: string;
            /** @enum {string} */
            posture?: "ask" | "suggest" | "on-request" | "untrusted" | "auto" | "auto-review" | "auto_review" | "bypass" | "full-access" | "full_access" | "yolo";
            prompt: string;
        };
        DecisionRecord: {
            additional_context: string | null;
            call_id: string | null;
            /** @enum {string} */
            decision: "allow" | "deny" | "ask";
            deny_kind: ("no_verdict" | "exit_2" | "json_deny") | null;
            hook_set_digest: string | null;
            hooks: {
                added_context: boolean;
                background: boolean;
                detail: string | null;
                duration_ms: number;
                exit_code: number | null;
                index: number;
                label: string;
                /** @enum {string} */
                outcome: "allow" | "deny" | "ask" | "deny_exit_2" | "no_decision" | "no_verdict" | "submitted" | "skipped";
                rewrote_input: boolean;
                source: string;
                strict: boolean;
            }[];
            input: {
                original: string;
                rewritten: string | null;
            };
            message: string | null;
            /** @constant */
            schema_version: 1;
            tool: string;
            /** @description the rewritten tool input (its keys are the tool's own) */
            updated_input: {
                [key: string]: unknown;
            } | null;
        } | null;
        Deleted: {
            /** @constant */
            deleted: true;
            thread_id: string;
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "invalid_json" | "invalid_request" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "conflict" | "payload_too_large" | "unprocessable" | "too_many_requests" | "unavailable" | "upstream" | "server_config" | "internal";
                /** @description 409 for a cursor ahead of the event log: the newest seq there is */
                head_seq?: number;
                issues?: {
                    code: string;
                    message: string;
                    path: string;
                }[];
                message: string;
            };
        };
        Event: components["schemas"]["Event_thread_started"] | components["schemas"]["Event_thread_archived"] | components["schemas"]["Event_thread_unarchived"] | components["schemas"]["Event_thread_deleted"] | components["schemas"]["Event_turn_started"] | components["schemas"]["Event_turn_completed"] | components["schemas"]["Event_item_started"] | components["schemas"]["Event_item_delta"] | components["schemas"]["Event_item_completed"] | components["schemas"]["Event_item_failed"] | components["schemas"]["Event_approval_required"] | components["schemas"]["Event_approval_decided"] | components["schemas"]["Event_approval_timeout"] | components["schemas"]["Event_user_input_required"] | components["schemas"]["Event_user_input_answered"] | components["schemas"]["Event_user_input_timeout"];
        Event_approval_decided: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "approval.decided";
            item_id: string | null;
            payload: {
                approval: {
                    /** @description what "always" would remember; null for approvals stored by an older server */
                    always: {
                        /**
                         * @description the file beside the server's config.toml
                         * @constant
                         */
                        file: "permissions.toml";
                        /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                        reason: string | null;
                        /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                        rule: {
                            command: string | null;
                            path: string | null;
                            tool: string;
                            workspace: string;
                        } | null;
                    } | null;
                    decided_at: string | null;
                    decision: ("allow" | "deny") | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    expires_at: string;
                    /** @description reason "hook": the tool_call_before hook that asked, and why */
                    hook: {
                        name: string;
                        reason: string | null;
                    } | null;
                    id: string;
                    item_id: string | null;
                    /** @description write and edit calls: what the call would change */
                    preview: {
                        added: number;
                        /**
                         * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                         * @enum {string}
                         */
                        kind: "diff" | "create" | "none";
                        note: string | null;
                        path: string;
                        removed: number;
                        /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                        text: string;
                        truncated: boolean;
                    } | null;
                    /** @enum {string} */
                    reason: "posture" | "hook" | "permission";
                    /** @description allowed for the session or always */
                    remember: boolean;
                    /** @description RFC 3339 with milliseconds and offset */
                    requested_at: string;
                    /** @description how a client allowed it; null while pending and for a denial */
                    scope: ("once" | "session" | "always") | null;
                    /** @enum {string} */
                    status: "pending" | "decided" | "expired";
                    summary: string;
                    thread_id: string;
                    tool: string;
                    turn_id: string;
                };
                /** @enum {string} */
                cause: "client" | "turn_interrupted" | "auto_review";
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_approval_required: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "approval.required";
            item_id: string | null;
            payload: {
                approval: {
                    /** @description what "always" would remember; null for approvals stored by an older server */
                    always: {
                        /**
                         * @description the file beside the server's config.toml
                         * @constant
                         */
                        file: "permissions.toml";
                        /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                        reason: string | null;
                        /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                        rule: {
                            command: string | null;
                            path: string | null;
                            tool: string;
                            workspace: string;
                        } | null;
                    } | null;
                    decided_at: string | null;
                    decision: ("allow" | "deny") | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    expires_at: string;
                    /** @description reason "hook": the tool_call_before hook that asked, and why */
                    hook: {
                        name: string;
                        reason: string | null;
                    } | null;
                    id: string;
                    item_id: string | null;
                    /** @description write and edit calls: what the call would change */
                    preview: {
                        added: number;
                        /**
                         * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                         * @enum {string}
                         */
                        kind: "diff" | "create" | "none";
                        note: string | null;
                        path: string;
                        removed: number;
                        /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                        text: string;
                        truncated: boolean;
                    } | null;
                    /** @enum {string} */
                    reason: "posture" | "hook" | "permission";
                    /** @description allowed for the session or always */
                    remember: boolean;
                    /** @description RFC 3339 with milliseconds and offset */
                    requested_at: string;
                    /** @description how a client allowed it; null while pending and for a denial */
                    scope: ("once" | "session" | "always") | null;
                    /** @enum {string} */
                    status: "pending" | "decided" | "expired";
                    summary: string;
                    thread_id: string;
                    tool: string;
                    turn_id: string;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_approval_timeout: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "approval.timeout";
            item_id: string | null;
            payload: {
                approval: {
                    /** @description what "always" would remember; null for approvals stored by an older server */
                    always: {
                        /**
                         * @description the file beside the server's config.toml
                         * @constant
                         */
                        file: "permissions.toml";
                        /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                        reason: string | null;
                        /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                        rule: {
                            command: string | null;
                            path: string | null;
                            tool: string;
                            workspace: string;
                        } | null;
                    } | null;
                    decided_at: string | null;
                    decision: ("allow" | "deny") | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    expires_at: string;
                    /** @description reason "hook": the tool_call_before hook that asked, and why */
                    hook: {
                        name: string;
                        reason: string | null;
                    } | null;
                    id: string;
                    item_id: string | null;
                    /** @description write and edit calls: what the call would change */
                    preview: {
                        added: number;
                        /**
                         * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                         * @enum {string}
                         */
                        kind: "diff" | "create" | "none";
                        note: string | null;
                        path: string;
                        removed: number;
                        /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                        text: string;
                        truncated: boolean;
                    } | null;
                    /** @enum {string} */
                    reason: "posture" | "hook" | "permission";
                    /** @description allowed for the session or always */
                    remember: boolean;
                    /** @description RFC 3339 with milliseconds and offset */
                    requested_at: string;
                    /** @description how a client allowed it; null while pending and for a denial */
                    scope: ("once" | "session" | "always") | null;
                    /** @enum {string} */
                    status: "pending" | "decided" | "expired";
                    summary: string;
                    thread_id: string;
                    tool: string;
                    turn_id: string;
                };
                /** @enum {string} */
                cause: "expired" | "server_restart" | "turn_ended";
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_item_completed: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "item.completed";
            item_id: string | null;
            payload: {
                item: {
                    /** @description RFC 3339 with milliseconds and offset */
                    created_at: string;
                    /** @description tool_call: the tool_call_before decision record */
                    decision: {
                        additional_context: string | null;
                        call_id: string | null;
                        /** @enum {string} */
                        decision: "allow" | "deny" | "ask";
                        deny_kind: ("no_verdict" | "exit_2" | "json_deny") | null;
                        hook_set_digest: string | null;
                        hooks: {
                            added_context: boolean;
                            background: boolean;
                            detail: string | null;
                            duration_ms: number;
                            exit_code: number | null;
                            index: number;
                            label: string;
                            /** @enum {string} */
                            outcome: "allow" | "deny" | "ask" | "deny_exit_2" | "no_decision" | "no_verdict" | "submitted" | "skipped";
                            rewrote_input: boolean;
                            source: string;
                            strict: boolean;
                        }[];
                        input: {
                            original: string;
                            rewritten: string | null;
                        };
                        message: string | null;
                        /** @constant */
                        schema_version: 1;
                        tool: string;
                        /** @description the rewritten tool input (its keys are the tool's own) */
                        updated_input: {
                            [key: string]: unknown;
                        } | null;
                    } | null;
                    detail: string | null;
                    id: string;
                    /** @enum {string} */
                    kind: "user_message" | "agent_message" | "agent_reasoning" | "tool_call" | "error" | "status";
                    metadata: {
                        [key: string]: unknown;
                    } | null;
                    /** @enum {string} */
                    status: "in_progress" | "completed" | "failed" | "interrupted";
                    summary: string;
                    thread_id: string;
                    turn_id: string;
                    /** @description RFC 3339 with milliseconds and offset */
                    updated_at: string;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_item_delta: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "item.delta";
            item_id: string | null;
            payload: {
                delta: string;
                /** @enum {string} */
                kind: "user_message" | "agent_message" | "agent_reasoning" | "tool_call" | "error" | "status";
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_item_failed: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "item.failed";
            item_id: string | null;
            payload: {
                item: {
                    /** @description RFC 3339 with milliseconds and offset */
                    created_at: string;
                    /** @description tool_call: the tool_call_before decision record */
                    decision: {
                        additional_context: string | null;
                        call_id: string | null;
                        /** @enum {string} */
                        decision: "allow" | "deny" | "ask";
                        deny_kind: ("no_verdict" | "exit_2" | "json_deny") | null;
                        hook_set_digest: string | null;
                        hooks: {
                            added_context: boolean;
                            background: boolean;
                            detail: string | null;
                            duration_ms: number;
                            exit_code: number | null;
                            index: number;
                            label: string;
                            /** @enum {string} */
                            outcome: "allow" | "deny" | "ask" | "deny_exit_2" | "no_decision" | "no_verdict" | "submitted" | "skipped";
                            rewrote_input: boolean;
                            source: string;
                            strict: boolean;
                        }[];
                        input: {
                            original: string;
                            rewritten: string | null;
                        };
                        message: string | null;
                        /** @constant */
                        schema_version: 1;
                        tool: string;
                        /** @description the rewritten tool input (its keys are the tool's own) */
                        updated_input: {
                            [key: string]: unknown;
                        } | null;
                    } | null;
                    detail: string | null;
                    id: string;
                    /** @enum {string} */
                    kind: "user_message" | "agent_message" | "agent_reasoning" | "tool_call" | "error" | "status";
                    metadata: {
                        [key: string]: unknown;
                    } | null;
                    /** @enum {string} */
                    status: "in_progress" | "completed" | "failed" | "interrupted";
                    summary: string;
                    thread_id: string;
                    turn_id: string;
                    /** @description RFC 3339 with milliseconds and offset */
                    updated_at: string;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_item_started: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "item.started";
            item_id: string | null;
            payload: {
                item: {
                    /** @description RFC 3339 with milliseconds and offset */
                    created_at: string;
                    /** @description tool_call: the tool_call_before decision record */
                    decision: {
                        additional_context: string | null;
                        call_id: string | null;
                        /** @enum {string} */
                        decision: "allow" | "deny" | "ask";
                        deny_kind: ("no_verdict" | "exit_2" | "json_deny") | null;
                        hook_set_digest: string | null;
                        hooks: {
                            added_context: boolean;
                            background: boolean;
                            detail: string | null;
                            duration_ms: number;
                            exit_code: number | null;
                            index: number;
                            label: string;
                            /** @enum {string} */
                            outcome: "allow" | "deny" | "ask" | "deny_exit_2" | "no_decision" | "no_verdict" | "submitted" | "skipped";
                            rewrote_input: boolean;
                            source: string;
                            strict: boolean;
                        }[];
                        input: {
                            original: string;
                            rewritten: string | null;
                        };
                        message: string | null;
                        /** @constant */
                        schema_version: 1;
                        tool: string;
                        /** @description the rewritten tool input (its keys are the tool's own) */
                        updated_input: {
                            [key: string]: unknown;
                        } | null;
                    } | null;
                    detail: string | null;
                    id: string;
                    /** @enum {string} */
                    kind: "user_message" | "agent_message" | "agent_reasoning" | "tool_call" | "error" | "status";
                    metadata: {
                        [key: string]: unknown;
                    } | null;
                    /** @enum {string} */
                    status: "in_progress" | "completed" | "failed" | "interrupted";
                    summary: string;
                    thread_id: string;
                    turn_id: string;
                    /** @description RFC 3339 with milliseconds and offset */
                    updated_at: string;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_thread_archived: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "thread.archived";
            item_id: string | null;
            payload: {
                thread: {
                    active_turn_id: string | null;
                    archived_at: string | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    created_at: string;
                    id: string;
                    mode: string;
                    model: string | null;
                    pending_approvals?: {
                        /** @description what "always" would remember; null for approvals stored by an older server */
                        always: {
                            /**
                             * @description the file beside the server's config.toml
                             * @constant
                             */
                            file: "permissions.toml";
                            /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                            reason: string | null;
                            /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                            rule: {
                                command: string | null;
                                path: string | null;
                                tool: string;
                                workspace: string;
                            } | null;
                        } | null;
                        decided_at: string | null;
                        decision: ("allow" | "deny") | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        expires_at: string;
                        /** @description reason "hook": the tool_call_before hook that asked, and why */
                        hook: {
                            name: string;
                            reason: string | null;
                        } | null;
                        id: string;
                        item_id: string | null;
                        /** @description write and edit calls: what the call would change */
                        preview: {
                            added: number;
                            /**
                             * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                             * @enum {string}
                             */
                            kind: "diff" | "create" | "none";
                            note: string | null;
                            path: string;
                            removed: number;
                            /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                            text: string;
                            truncated: boolean;
                        } | null;
                        /** @enum {string} */
                        reason: "posture" | "hook" | "permission";
                        /** @description allowed for the session or always */
                        remember: boolean;
                        /** @description RFC 3339 with milliseconds and offset */
                        requested_at: string;
                        /** @description how a client allowed it; null while pending and for a denial */
                        scope: ("once" | "session" | "always") | null;
                        /** @enum {string} */
                        status: "pending" | "decided" | "expired";
                        summary: string;
                        thread_id: string;
                        tool: string;
                        turn_id: string;
                    }[];
                    posture: string;
                    session_id: string | null;
                    /** @enum {string} */
                    status: "idle" | "active" | "waiting";
                    /** @description RFC 3339 with milliseconds and offset */
                    updated_at: string;
                    workspace: string;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_thread_deleted: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "thread.deleted";
            item_id: string | null;
            payload: {
                thread_id: string;
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_thread_started: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "thread.started";
            item_id: string | null;
            payload: {
                thread: {
                    active_turn_id: string | null;
                    archived_at: string | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    created_at: string;
                    id: string;
                    mode: string;
                    model: string | null;
                    pending_approvals?: {
                        /** @description what "always" would remember; null for approvals stored by an older server */
                        always: {
                            /**
                             * @description the file beside the server's config.toml
                             * @constant
                             */
                            file: "permissions.toml";
                            /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                            reason: string | null;
                            /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                            rule: {
                                command: string | null;
                                path: string | null;
                                tool: string;
                                workspace: string;
                            } | null;
                        } | null;
                        decided_at: string | null;
                        decision: ("allow" | "deny") | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        expires_at: string;
                        /** @description reason "hook": the tool_call_before hook that asked, and why */
                        hook: {
                            name: string;
                            reason: string | null;
                        } | null;
                        id: string;
                        item_id: string | null;
                        /** @description write and edit calls: what the call would change */
                        preview: {
                            added: number;
                            /**
                             * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                             * @enum {string}
                             */
                            kind: "diff" | "create" | "none";
                            note: string | null;
                            path: string;
                            removed: number;
                            /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                            text: string;
                            truncated: boolean;
                        } | null;
                        /** @enum {string} */
                        reason: "posture" | "hook" | "permission";
                        /** @description allowed for the session or always */
                        remember: boolean;
                        /** @description RFC 3339 with milliseconds and offset */
                        requested_at: string;
                        /** @description how a client allowed it; null while pending and for a denial */
                        scope: ("once" | "session" | "always") | null;
                        /** @enum {string} */
                        status: "pending" | "decided" | "expired";
                        summary: string;
                        thread_id: string;
                        tool: string;
                        turn_id: string;
                    }[];
                    posture: string;
                    session_id: string | null;
                    /** @enum {string} */
                    status: "idle" | "active" | "waiting";
                    /** @description RFC 3339 with milliseconds and offset */
                    updated_at: string;
                    workspace: string;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_thread_unarchived: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "thread.unarchived";
            item_id: string | null;
            payload: {
                thread: {
                    active_turn_id: string | null;
                    archived_at: string | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    created_at: string;
                    id: string;
                    mode: string;
                    model: string | null;
                    pending_approvals?: {
                        /** @description what "always" would remember; null for approvals stored by an older server */
                        always: {
                            /**
                             * @description the file beside the server's config.toml
                             * @constant
                             */
                            file: "permissions.toml";
                            /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                            reason: string | null;
                            /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                            rule: {
                                command: string | null;
                                path: string | null;
                                tool: string;
                                workspace: string;
                            } | null;
                        } | null;
                        decided_at: string | null;
                        decision: ("allow" | "deny") | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        expires_at: string;
                        /** @description reason "hook": the tool_call_before hook that asked, and why */
                        hook: {
                            name: string;
                            reason: string | null;
                        } | null;
                        id: string;
                        item_id: string | null;
                        /** @description write and edit calls: what the call would change */
                        preview: {
                            added: number;
                            /**
                             * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                             * @enum {string}
                             */
                            kind: "diff" | "create" | "none";
                            note: string | null;
                            path: string;
                            removed: number;
                            /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                            text: string;
                            truncated: boolean;
                        } | null;
                        /** @enum {string} */
                        reason: "posture" | "hook" | "permission";
                        /** @description allowed for the session or always */
                        remember: boolean;
                        /** @description RFC 3339 with milliseconds and offset */
                        requested_at: string;
                        /** @description how a client allowed it; null while pending and for a denial */
                        scope: ("once" | "session" | "always") | null;
                        /** @enum {string} */
                        status: "pending" | "decided" | "expired";
                        summary: string;
                        thread_id: string;
                        tool: string;
                        turn_id: string;
                    }[];
                    posture: string;
                    session_id: string | null;
                    /** @enum {string} */
                    status: "idle" | "active" | "waiting";
                    /** @description RFC 3339 with milliseconds and offset */
                    updated_at: string;
                    workspace: string;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_turn_completed: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "turn.completed";
            item_id: string | null;
            payload: {
                /** @constant */
                cause?: "server_restart";
                turn: {
                    completed_at: string | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    created_at: string;
                    error: string | null;
                    error_category: string | null;
                    id: string;
                    mode: string;
                    model: string | null;
                    posture: string;
                    prompt: string;
                    /** @enum {string} */
                    status: "in_progress" | "completed" | "interrupted" | "failed";
                    thread_id: string;
                    usage: {
                        duration_ms?: number;
                        input_tokens: number;
                        model?: string;
                        output_tokens: number;
                        prompt_cache_hit_tokens?: number | null;
                        prompt_cache_miss_tokens?: number | null;
                        prompt_cache_write_tokens?: number | null;
                        provider?: string;
                        reasoning_replay_tokens?: number | null;
                        reasoning_tokens?: number | null;
                        tool_count?: number;
                    } | null;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_turn_started: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "turn.started";
            item_id: string | null;
            payload: {
                turn: {
                    completed_at: string | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    created_at: string;
                    error: string | null;
                    error_category: string | null;
                    id: string;
                    mode: string;
                    model: string | null;
                    posture: string;
                    prompt: string;
                    /** @enum {string} */
                    status: "in_progress" | "completed" | "interrupted" | "failed";
                    thread_id: string;
                    usage: {
                        duration_ms?: number;
                        input_tokens: number;
                        model?: string;
                        output_tokens: number;
                        prompt_cache_hit_tokens?: number | null;
                        prompt_cache_miss_tokens?: number | null;
                        prompt_cache_write_tokens?: number | null;
                        provider?: string;
                        reasoning_replay_tokens?: number | null;
                        reasoning_tokens?: number | null;
                        tool_count?: number;
                    } | null;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_user_input_answered: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "user_input.answered";
            item_id: string | null;
            payload: {
                /** @constant */
                cause: "client";
                user_input: {
                    answered_at: string | null;
                    answers: {
                        [key: string]: string | string[];
                    } | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    expires_at: string;
                    id: string;
                    item_id: string | null;
                    questions: {
                        allow_free_text: boolean;
                        header: string;
                        id: string;
                        multi_select: boolean;
                        options: {
                            description?: string;
                            label: string;
                        }[];
                        question: string;
                    }[];
                    /** @description RFC 3339 with milliseconds and offset */
                    requested_at: string;
                    /** @enum {string} */
                    status: "pending" | "answered" | "expired";
                    thread_id: string;
                    turn_id: string;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_user_input_required: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "user_input.required";
            item_id: string | null;
            payload: {
                user_input: {
                    answered_at: string | null;
                    answers: {
                        [key: string]: string | string[];
                    } | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    expires_at: string;
                    id: string;
                    item_id: string | null;
                    questions: {
                        allow_free_text: boolean;
                        header: string;
                        id: string;
                        multi_select: boolean;
                        options: {
                            description?: string;
                            label: string;
                        }[];
                        question: string;
                    }[];
                    /** @description RFC 3339 with milliseconds and offset */
                    requested_at: string;
                    /** @enum {string} */
                    status: "pending" | "answered" | "expired";
                    thread_id: string;
                    turn_id: string;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        Event_user_input_timeout: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "user_input.timeout";
            item_id: string | null;
            payload: {
                /** @enum {string} */
                cause: "expired" | "turn_ended" | "server_restart";
                user_input: {
                    answered_at: string | null;
                    answers: {
                        [key: string]: string | string[];
                    } | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    expires_at: string;
                    id: string;
                    item_id: string | null;
                    questions: {
                        allow_free_text: boolean;
                        header: string;
                        id: string;
                        multi_select: boolean;
                        options: {
                            description?: string;
                            label: string;
                        }[];
                        question: string;
                    }[];
                    /** @description RFC 3339 with milliseconds and offset */
                    requested_at: string;
                    /** @enum {string} */
                    status: "pending" | "answered" | "expired";
                    thread_id: string;
                    turn_id: string;
                };
            };
            /** @constant */
            schema_version: 1;
            seq: number;
            thread_id: string;
            turn_id: string | null;
        };
        EventPage: {
            events: ({
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "thread.started";
                item_id: string | null;
                payload: {
                    thread: {
                        active_turn_id: string | null;
                        archived_at: string | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        created_at: string;
                        id: string;
                        mode: string;
                        model: string | null;
                        pending_approvals?: {
                            /** @description what "always" would remember; null for approvals stored by an older server */
                            always: {
                                /**
                                 * @description the file beside the server's config.toml
                                 * @constant
                                 */
                                file: "permissions.toml";
                                /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                                reason: string | null;
                                /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                                rule: {
                                    command: string | null;
                                    path: string | null;
                                    tool: string;
                                    workspace: string;
                                } | null;
                            } | null;
                            decided_at: string | null;
                            decision: ("allow" | "deny") | null;
                            /** @description RFC 3339 with milliseconds and offset */
                            expires_at: string;
                            /** @description reason "hook": the tool_call_before hook that asked, and why */
                            hook: {
                                name: string;
                                reason: string | null;
                            } | null;
                            id: string;
                            item_id: string | null;
                            /** @description write and edit calls: what the call would change */
                            preview: {
                                added: number;
                                /**
                                 * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                                 * @enum {string}
                                 */
                                kind: "diff" | "create" | "none";
                                note: string | null;
                                path: string;
                                removed: number;
                                /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                                text: string;
                                truncated: boolean;
                            } | null;
                            /** @enum {string} */
                            reason: "posture" | "hook" | "permission";
                            /** @description allowed for the session or always */
                            remember: boolean;
                            /** @description RFC 3339 with milliseconds and offset */
                            requested_at: string;
                            /** @description how a client allowed it; null while pending and for a denial */
                            scope: ("once" | "session" | "always") | null;
                            /** @enum {string} */
                            status: "pending" | "decided" | "expired";
                            summary: string;
                            thread_id: string;
                            tool: string;
                            turn_id: string;
                        }[];
                        posture: string;
                        session_id: string | null;
                        /** @enum {string} */
                        status: "idle" | "active" | "waiting";
                        /** @description RFC 3339 with milliseconds and offset */
                        updated_at: string;
                        workspace: string;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "thread.archived";
                item_id: string | null;
                payload: {
                    thread: {
                        active_turn_id: string | null;
                        archived_at: string | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        created_at: string;
                        id: string;
                        mode: string;
                        model: string | null;
                        pending_approvals?: {
                            /** @description what "always" would remember; null for approvals stored by an older server */
                            always: {
                                /**
                                 * @description the file beside the server's config.toml
                                 * @constant
                                 */
                                file: "permissions.toml";
                                /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                                reason: string | null;
                                /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                                rule: {
                                    command: string | null;
                                    path: string | null;
                                    tool: string;
                                    workspace: string;
                                } | null;
                            } | null;
                            decided_at: string | null;
                            decision: ("allow" | "deny") | null;
                            /** @description RFC 3339 with milliseconds and offset */
                            expires_at: string;
                            /** @description reason "hook": the tool_call_before hook that asked, and why */
                            hook: {
                                name: string;
                                reason: string | null;
                            } | null;
                            id: string;
                            item_id: string | null;
                            /** @description write and edit calls: what the call would change */
                            preview: {
                                added: number;
                                /**
                                 * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                                 * @enum {string}
                                 */
                                kind: "diff" | "create" | "none";
                                note: string | null;
                                path: string;
                                removed: number;
                                /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                                text: string;
                                truncated: boolean;
                            } | null;
                            /** @enum {string} */
                            reason: "posture" | "hook" | "permission";
                            /** @description allowed for the session or always */
                            remember: boolean;
                            /** @description RFC 3339 with milliseconds and offset */
                            requested_at: string;
                            /** @description how a client allowed it; null while pending and for a denial */
                            scope: ("once" | "session" | "always") | null;
                            /** @enum {string} */
                            status: "pending" | "decided" | "expired";
                            summary: string;
                            thread_id: string;
                            tool: string;
                            turn_id: string;
                        }[];
                        posture: string;
                        session_id: string | null;
                        /** @enum {string} */
                        status: "idle" | "active" | "waiting";
                        /** @description RFC 3339 with milliseconds and offset */
                        updated_at: string;
                        workspace: string;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "thread.unarchived";
                item_id: string | null;
                payload: {
                    thread: {
                        active_turn_id: string | null;
                        archived_at: string | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        created_at: string;
                        id: string;
                        mode: string;
                        model: string | null;
                        pending_approvals?: {
                            /** @description what "always" would remember; null for approvals stored by an older server */
                            always: {
                                /**
                                 * @description the file beside the server's config.toml
                                 * @constant
                                 */
                                file: "permissions.toml";
                                /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                                reason: string | null;
                                /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                                rule: {
                                    command: string | null;
                                    path: string | null;
                                    tool: string;
                                    workspace: string;
                                } | null;
                            } | null;
                            decided_at: string | null;
                            decision: ("allow" | "deny") | null;
                            /** @description RFC 3339 with milliseconds and offset */
                            expires_at: string;
                            /** @description reason "hook": the tool_call_before hook that asked, and why */
                            hook: {
                                name: string;
                                reason: string | null;
                            } | null;
                            id: string;
                            item_id: string | null;
                            /** @description write and edit calls: what the call would change */
                            preview: {
                                added: number;
                                /**
                                 * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                                 * @enum {string}
                                 */
                                kind: "diff" | "create" | "none";
                                note: string | null;
                                path: string;
                                removed: number;
                                /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                                text: string;
                                truncated: boolean;
                            } | null;
                            /** @enum {string} */
                            reason: "posture" | "hook" | "permission";
                            /** @description allowed for the session or always */
                            remember: boolean;
                            /** @description RFC 3339 with milliseconds and offset */
                            requested_at: string;
                            /** @description how a client allowed it; null while pending and for a denial */
                            scope: ("once" | "session" | "always") | null;
                            /** @enum {string} */
                            status: "pending" | "decided" | "expired";
                            summary: string;
                            thread_id: string;
                            tool: string;
                            turn_id: string;
                        }[];
                        posture: string;
                        session_id: string | null;
                        /** @enum {string} */
                        status: "idle" | "active" | "waiting";
                        /** @description RFC 3339 with milliseconds and offset */
                        updated_at: string;
                        workspace: string;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "thread.deleted";
                item_id: string | null;
                payload: {
                    thread_id: string;
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "turn.started";
                item_id: string | null;
                payload: {
                    turn: {
                        completed_at: string | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        created_at: string;
                        error: string | null;
                        error_category: string | null;
                        id: string;
                        mode: string;
                        model: string | null;
                        posture: string;
                        prompt: string;
                        /** @enum {string} */
                        status: "in_progress" | "completed" | "interrupted" | "failed";
                        thread_id: string;
                        usage: {
                            duration_ms?: number;
                            input_tokens: number;
                            model?: string;
                            output_tokens: number;
                            prompt_cache_hit_tokens?: number | null;
                            prompt_cache_miss_tokens?: number | null;
                            prompt_cache_write_tokens?: number | null;
                            provider?: string;
                            reasoning_replay_tokens?: number | null;
                            reasoning_tokens?: number | null;
                            tool_count?: number;
                        } | null;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "turn.completed";
                item_id: string | null;
                payload: {
                    /** @constant */
                    cause?: "server_restart";
                    turn: {
                        completed_at: string | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        created_at: string;
                        error: string | null;
                        error_category: string | null;
                        id: string;
                        mode: string;
                        model: string | null;
                        posture: string;
                        prompt: string;
                        /** @enum {string} */
                        status: "in_progress" | "completed" | "interrupted" | "failed";
                        thread_id: string;
                        usage: {
                            duration_ms?: number;
                            input_tokens: number;
                            model?: string;
                            output_tokens: number;
                            prompt_cache_hit_tokens?: number | null;
                            prompt_cache_miss_tokens?: number | null;
                            prompt_cache_write_tokens?: number | null;
                            provider?: string;
                            reasoning_replay_tokens?: number | null;
                            reasoning_tokens?: number | null;
                            tool_count?: number;
                        } | null;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "item.started";
                item_id: string | null;
                payload: {
                    item: {
                        /** @description RFC 3339 with milliseconds and offset */
                        created_at: string;
                        /** @description tool_call: the tool_call_before decision record */
                        decision: {
                            additional_context: string | null;
                            call_id: string | null;
                            /** @enum {string} */
                            decision: "allow" | "deny" | "ask";
                            deny_kind: ("no_verdict" | "exit_2" | "json_deny") | null;
                            hook_set_digest: string | null;
                            hooks: {
                                added_context: boolean;
                                background: boolean;
                                detail: string | null;
                                duration_ms: number;
                                exit_code: number | null;
                                index: number;
                                label: string;
                                /** @enum {string} */
                                outcome: "allow" | "deny" | "ask" | "deny_exit_2" | "no_decision" | "no_verdict" | "submitted" | "skipped";
                                rewrote_input: boolean;
                                source: string;
                                strict: boolean;
                            }[];
                            input: {
                                original: string;
                                rewritten: string | null;
                            };
                            message: string | null;
                            /** @constant */
                            schema_version: 1;
                            tool: string;
                            /** @description the rewritten tool input (its keys are the tool's own) */
                            updated_input: {
                                [key: string]: unknown;
                            } | null;
                        } | null;
                        detail: string | null;
                        id: string;
                        /** @enum {string} */
                        kind: "user_message" | "agent_message" | "agent_reasoning" | "tool_call" | "error" | "status";
                        metadata: {
                            [key: string]: unknown;
                        } | null;
                        /** @enum {string} */
                        status: "in_progress" | "completed" | "failed" | "interrupted";
                        summary: string;
                        thread_id: string;
                        turn_id: string;
                        /** @description RFC 3339 with milliseconds and offset */
                        updated_at: string;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "item.delta";
                item_id: string | null;
                payload: {
                    delta: string;
                    /** @enum {string} */
                    kind: "user_message" | "agent_message" | "agent_reasoning" | "tool_call" | "error" | "status";
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "item.completed";
                item_id: string | null;
                payload: {
                    item: {
                        /** @description RFC 3339 with milliseconds and offset */
                        created_at: string;
                        /** @description tool_call: the tool_call_before decision record */
                        decision: {
                            additional_context: string | null;
                            call_id: string | null;
                            /** @enum {string} */
                            decision: "allow" | "deny" | "ask";
                            deny_kind: ("no_verdict" | "exit_2" | "json_deny") | null;
                            hook_set_digest: string | null;
                            hooks: {
                                added_context: boolean;
                                background: boolean;
                                detail: string | null;
                                duration_ms: number;
                                exit_code: number | null;
                                index: number;
                                label: string;
                                /** @enum {string} */
                                outcome: "allow" | "deny" | "ask" | "deny_exit_2" | "no_decision" | "no_verdict" | "submitted" | "skipped";
                                rewrote_input: boolean;
                                source: string;
                                strict: boolean;
                            }[];
                            input: {
                                original: string;
                                rewritten: string | null;
                            };
                            message: string | null;
                            /** @constant */
                            schema_version: 1;
                            tool: string;
                            /** @description the rewritten tool input (its keys are the tool's own) */
                            updated_input: {
                                [key: string]: unknown;
                            } | null;
                        } | null;
                        detail: string | null;
                        id: string;
                        /** @enum {string} */
                        kind: "user_message" | "agent_message" | "agent_reasoning" | "tool_call" | "error" | "status";
                        metadata: {
                            [key: string]: unknown;
                        } | null;
                        /** @enum {string} */
                        status: "in_progress" | "completed" | "failed" | "interrupted";
                        summary: string;
                        thread_id: string;
                        turn_id: string;
                        /** @description RFC 3339 with milliseconds and offset */
                        updated_at: string;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "item.failed";
                item_id: string | null;
                payload: {
                    item: {
                        /** @description RFC 3339 with milliseconds and offset */
                        created_at: string;
                        /** @description tool_call: the tool_call_before decision record */
                        decision: {
                            additional_context: string | null;
                            call_id: string | null;
                            /** @enum {string} */
                            decision: "allow" | "deny" | "ask";
                            deny_kind: ("no_verdict" | "exit_2" | "json_deny") | null;
                            hook_set_digest: string | null;
                            hooks: {
                                added_context: boolean;
                                background: boolean;
                                detail: string | null;
                                duration_ms: number;
                                exit_code: number | null;
                                index: number;
                                label: string;
                                /** @enum {string} */
                                outcome: "allow" | "deny" | "ask" | "deny_exit_2" | "no_decision" | "no_verdict" | "submitted" | "skipped";
                                rewrote_input: boolean;
                                source: string;
                                strict: boolean;
                            }[];
                            input: {
                                original: string;
                                rewritten: string | null;
                            };
                            message: string | null;
                            /** @constant */
                            schema_version: 1;
                            tool: string;
                            /** @description the rewritten tool input (its keys are the tool's own) */
                            updated_input: {
                                [key: string]: unknown;
                            } | null;
                        } | null;
                        detail: string | null;
                        id: string;
                        /** @enum {string} */
                        kind: "user_message" | "agent_message" | "agent_reasoning" | "tool_call" | "error" | "status";
                        metadata: {
                            [key: string]: unknown;
                        } | null;
                        /** @enum {string} */
                        status: "in_progress" | "completed" | "failed" | "interrupted";
                        summary: string;
                        thread_id: string;
                        turn_id: string;
                        /** @description RFC 3339 with milliseconds and offset */
                        updated_at: string;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "approval.required";
                item_id: string | null;
                payload: {
                    approval: {
                        /** @description what "always" would remember; null for approvals stored by an older server */
                        always: {
                            /**
                             * @description the file beside the server's config.toml
                             * @constant
                             */
                            file: "permissions.toml";
                            /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                            reason: string | null;
                            /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                            rule: {
                                command: string | null;
                                path: string | null;
                                tool: string;
                                workspace: string;
                            } | null;
                        } | null;
                        decided_at: string | null;
                        decision: ("allow" | "deny") | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        expires_at: string;
                        /** @description reason "hook": the tool_call_before hook that asked, and why */
                        hook: {
                            name: string;
                            reason: string | null;
                        } | null;
                        id: string;
                        item_id: string | null;
                        /** @description write and edit calls: what the call would change */
                        preview: {
                            added: number;
                            /**
                             * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                             * @enum {string}
                             */
                            kind: "diff" | "create" | "none";
                            note: string | null;
                            path: string;
                            removed: number;
                            /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                            text: string;
                            truncated: boolean;
                        } | null;
                        /** @enum {string} */
                        reason: "posture" | "hook" | "permission";
                        /** @description allowed for the session or always */
                        remember: boolean;
                        /** @description RFC 3339 with milliseconds and offset */
                        requested_at: string;
                        /** @description how a client allowed it; null while pending and for a denial */
                        scope: ("once" | "session" | "always") | null;
                        /** @enum {string} */
                        status: "pending" | "decided" | "expired";
                        summary: string;
                        thread_id: string;
                        tool: string;
                        turn_id: string;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "approval.decided";
                item_id: string | null;
                payload: {
                    approval: {
                        /** @description what "always" would remember; null for approvals stored by an older server */
                        always: {
                            /**
                             * @description the file beside the server's config.toml
                             * @constant
                             */
                            file: "permissions.toml";
                            /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                            reason: string | null;
                            /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                            rule: {
                                command: string | null;
                                path: string | null;
                                tool: string;
                                workspace: string;
                            } | null;
                        } | null;
                        decided_at: string | null;
                        decision: ("allow" | "deny") | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        expires_at: string;
                        /** @description reason "hook": the tool_call_before hook that asked, and why */
                        hook: {
                            name: string;
                            reason: string | null;
                        } | null;
                        id: string;
                        item_id: string | null;
                        /** @description write and edit calls: what the call would change */
                        preview: {
                            added: number;
                            /**
                             * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                             * @enum {string}
                             */
                            kind: "diff" | "create" | "none";
                            note: string | null;
                            path: string;
                            removed: number;
                            /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                            text: string;
                            truncated: boolean;
                        } | null;
                        /** @enum {string} */
                        reason: "posture" | "hook" | "permission";
                        /** @description allowed for the session or always */
                        remember: boolean;
                        /** @description RFC 3339 with milliseconds and offset */
                        requested_at: string;
                        /** @description how a client allowed it; null while pending and for a denial */
                        scope: ("once" | "session" | "always") | null;
                        /** @enum {string} */
                        status: "pending" | "decided" | "expired";
                        summary: string;
                        thread_id: string;
                        tool: string;
                        turn_id: string;
                    };
                    /** @enum {string} */
                    cause: "client" | "turn_interrupted" | "auto_review";
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "approval.timeout";
                item_id: string | null;
                payload: {
                    approval: {
                        /** @description what "always" would remember; null for approvals stored by an older server */
                        always: {
                            /**
                             * @description the file beside the server's config.toml
                             * @constant
                             */
                            file: "permissions.toml";
                            /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                            reason: string | null;
                            /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                            rule: {
                                command: string | null;
                                path: string | null;
                                tool: string;
                                workspace: string;
                            } | null;
                        } | null;
                        decided_at: string | null;
                        decision: ("allow" | "deny") | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        expires_at: string;
                        /** @description reason "hook": the tool_call_before hook that asked, and why */
                        hook: {
                            name: string;
                            reason: string | null;
                        } | null;
                        id: string;
                        item_id: string | null;
                        /** @description write and edit calls: what the call would change */
                        preview: {
                            added: number;
                            /**
                             * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                             * @enum {string}
                             */
                            kind: "diff" | "create" | "none";
                            note: string | null;
                            path: string;
                            removed: number;
                            /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                            text: string;
                            truncated: boolean;
                        } | null;
                        /** @enum {string} */
                        reason: "posture" | "hook" | "permission";
                        /** @description allowed for the session or always */
                        remember: boolean;
                        /** @description RFC 3339 with milliseconds and offset */
                        requested_at: string;
                        /** @description how a client allowed it; null while pending and for a denial */
                        scope: ("once" | "session" | "always") | null;
                        /** @enum {string} */
                        status: "pending" | "decided" | "expired";
                        summary: string;
                        thread_id: string;
                        tool: string;
                        turn_id: string;
                    };
                    /** @enum {string} */
                    cause: "expired" | "server_restart" | "turn_ended";
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "user_input.required";
                item_id: string | null;
                payload: {
                    user_input: {
                        answered_at: string | null;
                        answers: {
                            [key: string]: string | string[];
                        } | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        expires_at: string;
                        id: string;
                        item_id: string | null;
                        questions: {
                            allow_free_text: boolean;
                            header: string;
                            id: string;
                            multi_select: boolean;
                            options: {
                                description?: string;
                                label: string;
                            }[];
                            question: string;
                        }[];
                        /** @description RFC 3339 with milliseconds and offset */
                        requested_at: string;
                        /** @enum {string} */
                        status: "pending" | "answered" | "expired";
                        thread_id: string;
                        turn_id: string;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "user_input.answered";
                item_id: string | null;
                payload: {
                    /** @constant */
                    cause: "client";
                    user_input: {
                        answered_at: string | null;
                        answers: {
                            [key: string]: string | string[];
                        } | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        expires_at: string;
                        id: string;
                        item_id: string | null;
                        questions: {
                            allow_free_text: boolean;
                            header: string;
                            id: string;
                            multi_select: boolean;
                            options: {
                                description?: string;
                                label: string;
                            }[];
                            question: string;
                        }[];
                        /** @description RFC 3339 with milliseconds and offset */
                        requested_at: string;
                        /** @enum {string} */
                        status: "pending" | "answered" | "expired";
                        thread_id: string;
                        turn_id: string;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            } | {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @constant */
                event: "user_input.timeout";
                item_id: string | null;
                payload: {
                    /** @enum {string} */
                    cause: "expired" | "turn_ended" | "server_restart";
                    user_input: {
                        answered_at: string | null;
                        answers: {
                            [key: string]: string | string[];
                        } | null;
                        /** @description RFC 3339 with milliseconds and offset */
                        expires_at: string;
                        id: string;
                        item_id: string | null;
                        questions: {
                            allow_free_text: boolean;
                            header: string;
                            id: string;
                            multi_select: boolean;
                            options: {
                                description?: string;
                                label: string;
                            }[];
                            question: string;
                        }[];
                        /** @description RFC 3339 with milliseconds and offset */
                        requested_at: string;
                        /** @enum {string} */
                        status: "pending" | "answered" | "expired";
                        thread_id: string;
                        turn_id: string;
                    };
                };
                /** @constant */
                schema_version: 1;
                seq: number;
                thread_id: string;
                turn_id: string | null;
            })[];
            head_seq: number;
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
            /** @description true: events after the cursor were pruned (re-read the threads) */
            stale: boolean;
        };
        Health: {
            /** @enum {string} */
            status: "ok" | "stopping";
        };
        /** @description the `codewhale hooks list --json` model */
        Hooks: {
            [key: string]: unknown;
        };
        Interrupted: {
            /** @constant */
            interrupted: true;
            turn_id: string;
        };
        Item: {
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            /** @description tool_call: the tool_call_before decision record */
            decision: {
                additional_context: string | null;
                call_id: string | null;
                /** @enum {string} */
                decision: "allow" | "deny" | "ask";
                deny_kind: ("no_verdict" | "exit_2" | "json_deny") | null;
                hook_set_digest: string | null;
                hooks: {
                    added_context: boolean;
                    background: boolean;
                    detail: string | null;
                    duration_ms: number;
                    exit_code: number | null;
                    index: number;
                    label: string;
                    /** @enum {string} */
                    outcome: "allow" | "deny" | "ask" | "deny_exit_2" | "no_decision" | "no_verdict" | "submitted" | "skipped";
                    rewrote_input: boolean;
                    source: string;
                    strict: boolean;
                }[];
                input: {
                    original: string;
                    rewritten: string | null;
                };
                message: string | null;
                /** @constant */
                schema_version: 1;
                tool: string;
                /** @description the rewritten tool input (its keys are the tool's own) */
                updated_input: {
                    [key: string]: unknown;
                } | null;
            } | null;
            detail: string | null;
            id: string;
            /** @enum {string} */
            kind: "user_message" | "agent_message" | "agent_reasoning" | "tool_call" | "error" | "status";
            metadata: {
                [key: string]: unknown;
            } | null;
            /** @enum {string} */
            status: "in_progress" | "completed" | "failed" | "interrupted";
            summary: string;
            thread_id: string;
            turn_id: string;
            /** @description RFC 3339 with milliseconds and offset */
            updated_at: string;
        };
        ItemPage: {
            items: {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @description tool_call: the tool_call_before decision record */
                decision: {
                    additional_context: string | null;
                    call_id: string | null;
                    /** @enum {string} */
                    decision: "allow" | "deny" | "ask";
                    deny_kind: ("no_verdict" | "exit_2" | "json_deny") | null;
                    hook_set_digest: string | null;
                    hooks: {
                        added_context: boolean;
                        background: boolean;
                        detail: string | null;
                        duration_ms: number;
                        exit_code: number | null;
                        index: number;
                        label: string;
                        /** @enum {string} */
                        outcome: "allow" | "deny" | "ask" | "deny_exit_2" | "no_decision" | "no_verdict" | "submitted" | "skipped";
                        rewrote_input: boolean;
                        source: string;
                        strict: boolean;
                    }[];
                    input: {
                        original: string;
                        rewritten: string | null;
                    };
                    message: string | null;
                    /** @constant */
                    schema_version: 1;
                    tool: string;
                    /** @description the rewritten tool input (its keys are the tool's own) */
                    updated_input: {
                        [key: string]: unknown;
                    } | null;
                } | null;
                detail: string | null;
                id: string;
                /** @enum {string} */
                kind: "user_message" | "agent_message" | "agent_reasoning" | "tool_call" | "error" | "status";
                metadata: {
                    [key: string]: unknown;
                } | null;
                /** @enum {string} */
                status: "in_progress" | "completed" | "failed" | "interrupted";
                summary: string;
                thread_id: string;
                turn_id: string;
                /** @description RFC 3339 with milliseconds and offset */
                updated_at: string;
            }[];
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        };
        OpenApiDocument: {
            [key: string]: unknown;
        };
        RuntimeInfo: {
            approval_timeout_secs: number;
            /** @enum {string} */
            auth: "none" | "token";
            /** @constant */
            event_schema_version: 1;
            hook_events: string[];
            max_concurrent_turns: number;
            /** @constant */
            name: "codewhale-runtime-api";
            schema_version: number;
            version: string;
        };
        ServerConnected: {
            cursor: number;
            head_seq: number;
            /** @description null on the global stream */
            thread_id: string | null;
        };
        ServerStopping: {
            hint: string;
            last_seq: number;
            thread_id: string | null;
        };
        Session: {
            /** @enum {string} */
            auth: "none" | "token";
            authenticated: boolean;
        };
        SessionBody: {
            token: string;
        } | {
            code: string;
        };
        StaleCursor: {
            cursor: number;
            hint: string;
            oldest_available_after: number;
            thread_id: string | null;
        };
        SteerBody: {
            prompt: string;
        };
        Steered: {
            blocked?: boolean;
            reason?: string;
            steered: boolean;
        };
        /** @description one server-sent event: `event:` is the name below, `data:` the JSON; stored events also carry `id: <seq>` */
        StreamFrame: {
            data: components["schemas"]["Event"];
            event: string;
            id: string;
        } | {
            data: components["schemas"]["ServerConnected"];
            /** @constant */
            event: "server.connected";
        } | {
            data: components["schemas"]["StaleCursor"];
            /** @constant */
            event: "stale_cursor";
        } | {
            data: components["schemas"]["ServerStopping"];
            /** @constant */
            event: "server.stopping";
        };
        Thread: {
            active_turn_id: string | null;
            archived_at: string | null;
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            id: string;
            mode: string;
            model: string | null;
            pending_approvals?: {
                /** @description what "always" would remember; null for approvals stored by an older server */
                always: {
                    /**
                     * @description the file beside the server's config.toml
                     * @constant
                     */
                    file: "permissions.toml";
                    /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                    reason: string | null;
                    /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                    rule: {
                        command: string | null;
                        path: string | null;
                        tool: string;
                        workspace: string;
                    } | null;
                } | null;
                decided_at: string | null;
                decision: ("allow" | "deny") | null;
                /** @description RFC 3339 with milliseconds and offset */
                expires_at: string;
                /** @description reason "hook": the tool_call_before hook that asked, and why */
                hook: {
                    name: string;
                    reason: string | null;
                } | null;
                id: string;
                item_id: string | null;
                /** @description write and edit calls: what the call would change */
                preview: {
                    added: number;
                    /**
                     * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                     * @enum {string}
                     */
                    kind: "diff" | "create" | "none";
                    note: string | null;
                    path: string;
                    removed: number;
                    /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                    text: string;
                    truncated: boolean;
                } | null;
                /** @enum {string} */
                reason: "posture" | "hook" | "permission";
                /** @description allowed for the session or always */
                remember: boolean;
                /** @description RFC 3339 with milliseconds and offset */
                requested_at: string;
                /** @description how a client allowed it; null while pending and for a denial */
                scope: ("once" | "session" | "always") | null;
                /** @enum {string} */
                status: "pending" | "decided" | "expired";
                summary: string;
                thread_id: string;
                tool: string;
                turn_id: string;
            }[];
            posture: string;
            session_id: string | null;
            /** @enum {string} */
            status: "idle" | "active" | "waiting";
            /** @description RFC 3339 with milliseconds and offset */
            updated_at: string;
            workspace: string;
        };
        ThreadDetail: {
            thread: {
                active_turn_id: string | null;
                archived_at: string | null;
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                id: string;
                mode: string;
                model: string | null;
                pending_approvals?: {
                    /** @description what "always" would remember; null for approvals stored by an older server */
                    always: {
                        /**
                         * @description the file beside the server's config.toml
                         * @constant
                         */
                        file: "permissions.toml";
                        /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                        reason: string | null;
                        /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                        rule: {
                            command: string | null;
                            path: string | null;
                            tool: string;
                            workspace: string;
                        } | null;
                    } | null;
                    decided_at: string | null;
                    decision: ("allow" | "deny") | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    expires_at: string;
                    /** @description reason "hook": the tool_call_before hook that asked, and why */
                    hook: {
                        name: string;
                        reason: string | null;
                    } | null;
                    id: string;
                    item_id: string | null;
                    /** @description write and edit calls: what the call would change */
                    preview: {
                        added: number;
                        /**
                         * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                         * @enum {string}
                         */
                        kind: "diff" | "create" | "none";
                        note: string | null;
                        path: string;
                        removed: number;
                        /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                        text: string;
                        truncated: boolean;
                    } | null;
                    /** @enum {string} */
                    reason: "posture" | "hook" | "permission";
                    /** @description allowed for the session or always */
                    remember: boolean;
                    /** @description RFC 3339 with milliseconds and offset */
                    requested_at: string;
                    /** @description how a client allowed it; null while pending and for a denial */
                    scope: ("once" | "session" | "always") | null;
                    /** @enum {string} */
                    status: "pending" | "decided" | "expired";
                    summary: string;
                    thread_id: string;
                    tool: string;
                    turn_id: string;
                }[];
                posture: string;
                session_id: string | null;
                /** @enum {string} */
                status: "idle" | "active" | "waiting";
                /** @description RFC 3339 with milliseconds and offset */
                updated_at: string;
                workspace: string;
            };
            turns: {
                completed_at: string | null;
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                error: string | null;
                error_category: string | null;
                id: string;
                mode: string;
                model: string | null;
                posture: string;
                prompt: string;
                /** @enum {string} */
                status: "in_progress" | "completed" | "interrupted" | "failed";
                thread_id: string;
                usage: {
                    duration_ms?: number;
                    input_tokens: number;
                    model?: string;
                    output_tokens: number;
                    prompt_cache_hit_tokens?: number | null;
                    prompt_cache_miss_tokens?: number | null;
                    prompt_cache_write_tokens?: number | null;
                    provider?: string;
                    reasoning_replay_tokens?: number | null;
                    reasoning_tokens?: number | null;
                    tool_count?: number;
                } | null;
            }[];
        };
        ThreadPage: {
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
            threads: {
                active_turn_id: string | null;
                archived_at: string | null;
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                id: string;
                mode: string;
                model: string | null;
                pending_approvals?: {
                    /** @description what "always" would remember; null for approvals stored by an older server */
                    always: {
                        /**
                         * @description the file beside the server's config.toml
                         * @constant
                         */
                        file: "permissions.toml";
                        /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                        reason: string | null;
                        /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                        rule: {
                            command: string | null;
                            path: string | null;
                            tool: string;
                            workspace: string;
                        } | null;
                    } | null;
                    decided_at: string | null;
                    decision: ("allow" | "deny") | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    expires_at: string;
                    /** @description reason "hook": the tool_call_before hook that asked, and why */
                    hook: {
                        name: string;
                        reason: string | null;
                    } | null;
                    id: string;
                    item_id: string | null;
                    /** @description write and edit calls: what the call would change */
                    preview: {
                        added: number;
                        /**
                         * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                         * @enum {string}
                         */
                        kind: "diff" | "create" | "none";
                        note: string | null;
                        path: string;
                        removed: number;
                        /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                        text: string;
                        truncated: boolean;
                    } | null;
                    /** @enum {string} */
                    reason: "posture" | "hook" | "permission";
                    /** @description allowed for the session or always */
                    remember: boolean;
                    /** @description RFC 3339 with milliseconds and offset */
                    requested_at: string;
                    /** @description how a client allowed it; null while pending and for a denial */
                    scope: ("once" | "session" | "always") | null;
                    /** @enum {string} */
                    status: "pending" | "decided" | "expired";
                    summary: string;
                    thread_id: string;
                    tool: string;
                    turn_id: string;
                }[];
                posture: string;
                session_id: string | null;
                /** @enum {string} */
                status: "idle" | "active" | "waiting";
                /** @description RFC 3339 with milliseconds and offset */
                updated_at: string;
                workspace: string;
            }[];
        };
        ThreadResult: {
            thread: {
                active_turn_id: string | null;
                archived_at: string | null;
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                id: string;
                mode: string;
                model: string | null;
                pending_approvals?: {
                    /** @description what "always" would remember; null for approvals stored by an older server */
                    always: {
                        /**
                         * @description the file beside the server's config.toml
                         * @constant
                         */
                        file: "permissions.toml";
                        /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                        reason: string | null;
                        /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                        rule: {
                            command: string | null;
                            path: string | null;
                            tool: string;
                            workspace: string;
                        } | null;
                    } | null;
                    decided_at: string | null;
                    decision: ("allow" | "deny") | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    expires_at: string;
                    /** @description reason "hook": the tool_call_before hook that asked, and why */
                    hook: {
                        name: string;
                        reason: string | null;
                    } | null;
                    id: string;
                    item_id: string | null;
                    /** @description write and edit calls: what the call would change */
                    preview: {
                        added: number;
                        /**
                         * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                         * @enum {string}
                         */
                        kind: "diff" | "create" | "none";
                        note: string | null;
                        path: string;
                        removed: number;
                        /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                        text: string;
                        truncated: boolean;
                    } | null;
                    /** @enum {string} */
                    reason: "posture" | "hook" | "permission";
                    /** @description allowed for the session or always */
                    remember: boolean;
                    /** @description RFC 3339 with milliseconds and offset */
                    requested_at: string;
                    /** @description how a client allowed it; null while pending and for a denial */
                    scope: ("once" | "session" | "always") | null;
                    /** @enum {string} */
                    status: "pending" | "decided" | "expired";
                    summary: string;
                    thread_id: string;
                    tool: string;
                    turn_id: string;
                }[];
                posture: string;
                session_id: string | null;
                /** @enum {string} */
                status: "idle" | "active" | "waiting";
                /** @description RFC 3339 with milliseconds and offset */
                updated_at: string;
                workspace: string;
            };
        };
        Turn: {
            completed_at: string | null;
            /** @description RFC 3339 with milliseconds and offset */
            created_at: string;
            error: string | null;
            error_category: string | null;
            id: string;
            mode: string;
            model: string | null;
            posture: string;
            prompt: string;
            /** @enum {string} */
            status: "in_progress" | "completed" | "interrupted" | "failed";
            thread_id: string;
            usage: {
                duration_ms?: number;
                input_tokens: number;
                model?: string;
                output_tokens: number;
                prompt_cache_hit_tokens?: number | null;
                prompt_cache_miss_tokens?: number | null;
                prompt_cache_write_tokens?: number | null;
                provider?: string;
                reasoning_replay_tokens?: number | null;
                reasoning_tokens?: number | null;
                tool_count?: number;
            } | null;
        };
        TurnDetail: {
            items: {
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                /** @description tool_call: the tool_call_before decision record */
                decision: {
                    additional_context: string | null;
                    call_id: string | null;
                    /** @enum {string} */
                    decision: "allow" | "deny" | "ask";
                    deny_kind: ("no_verdict" | "exit_2" | "json_deny") | null;
                    hook_set_digest: string | null;
                    hooks: {
                        added_context: boolean;
                        background: boolean;
                        detail: string | null;
                        duration_ms: number;
                        exit_code: number | null;
                        index: number;
                        label: string;
                        /** @enum {string} */
                        outcome: "allow" | "deny" | "ask" | "deny_exit_2" | "no_decision" | "no_verdict" | "submitted" | "skipped";
                        rewrote_input: boolean;
                        source: string;
                        strict: boolean;
                    }[];
                    input: {
                        original: string;
                        rewritten: string | null;
                    };
                    message: string | null;
                    /** @constant */
                    schema_version: 1;
                    tool: string;
                    /** @description the rewritten tool input (its keys are the tool's own) */
                    updated_input: {
                        [key: string]: unknown;
                    } | null;
                } | null;
                detail: string | null;
                id: string;
                /** @enum {string} */
                kind: "user_message" | "agent_message" | "agent_reasoning" | "tool_call" | "error" | "status";
                metadata: {
                    [key: string]: unknown;
                } | null;
                /** @enum {string} */
                status: "in_progress" | "completed" | "failed" | "interrupted";
                summary: string;
                thread_id: string;
                turn_id: string;
                /** @description RFC 3339 with milliseconds and offset */
                updated_at: string;
            }[];
            turn: {
                completed_at: string | null;
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                error: string | null;
                error_category: string | null;
                id: string;
                mode: string;
                model: string | null;
                posture: string;
                prompt: string;
                /** @enum {string} */
                status: "in_progress" | "completed" | "interrupted" | "failed";
                thread_id: string;
                usage: {
                    duration_ms?: number;
                    input_tokens: number;
                    model?: string;
                    output_tokens: number;
                    prompt_cache_hit_tokens?: number | null;
                    prompt_cache_miss_tokens?: number | null;
                    prompt_cache_write_tokens?: number | null;
                    provider?: string;
                    reasoning_replay_tokens?: number | null;
                    reasoning_tokens?: number | null;
                    tool_count?: number;
                } | null;
            };
        };
        TurnPage: {
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
            turns: {
                completed_at: string | null;
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                error: string | null;
                error_category: string | null;
                id: string;
                mode: string;
                model: string | null;
                posture: string;
                prompt: string;
                /** @enum {string} */
                status: "in_progress" | "completed" | "interrupted" | "failed";
                thread_id: string;
                usage: {
                    duration_ms?: number;
                    input_tokens: number;
                    model?: string;
                    output_tokens: number;
                    prompt_cache_hit_tokens?: number | null;
                    prompt_cache_miss_tokens?: number | null;
                    prompt_cache_write_tokens?: number | null;
                    provider?: string;
                    reasoning_replay_tokens?: number | null;
                    reasoning_tokens?: number | null;
                    tool_count?: number;
                } | null;
            }[];
        };
        TurnStarted: {
            thread: {
                active_turn_id: string | null;
                archived_at: string | null;
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                id: string;
                mode: string;
                model: string | null;
                pending_approvals?: {
                    /** @description what "always" would remember; null for approvals stored by an older server */
                    always: {
                        /**
                         * @description the file beside the server's config.toml
                         * @constant
                         */
                        file: "permissions.toml";
                        /** @description why no rule can remember this call (a glob character, a command substitution, several commands) */
                        reason: string | null;
                        /** @description the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written */
                        rule: {
                            command: string | null;
                            path: string | null;
                            tool: string;
                            workspace: string;
                        } | null;
                    } | null;
                    decided_at: string | null;
                    decision: ("allow" | "deny") | null;
                    /** @description RFC 3339 with milliseconds and offset */
                    expires_at: string;
                    /** @description reason "hook": the tool_call_before hook that asked, and why */
                    hook: {
                        name: string;
                        reason: string | null;
                    } | null;
                    id: string;
                    item_id: string | null;
                    /** @description write and edit calls: what the call would change */
                    preview: {
                        added: number;
                        /**
                         * @description diff: unified hunks against the file as it is; create: the new file; none: see note
                         * @enum {string}
                         */
                        kind: "diff" | "create" | "none";
                        note: string | null;
                        path: string;
                        removed: number;
                        /** @description plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX> */
                        text: string;
                        truncated: boolean;
                    } | null;
                    /** @enum {string} */
                    reason: "posture" | "hook" | "permission";
                    /** @description allowed for the session or always */
                    remember: boolean;
                    /** @description RFC 3339 with milliseconds and offset */
                    requested_at: string;
                    /** @description how a client allowed it; null while pending and for a denial */
                    scope: ("once" | "session" | "always") | null;
                    /** @enum {string} */
                    status: "pending" | "decided" | "expired";
                    summary: string;
                    thread_id: string;
                    tool: string;
                    turn_id: string;
                }[];
                posture: string;
                session_id: string | null;
                /** @enum {string} */
                status: "idle" | "active" | "waiting";
                /** @description RFC 3339 with milliseconds and offset */
                updated_at: string;
                workspace: string;
            };
            turn: {
                completed_at: string | null;
                /** @description RFC 3339 with milliseconds and offset */
                created_at: string;
                error: string | null;
                error_category: string | null;
                id: string;
                mode: string;
                model: string | null;
                posture: string;
                prompt: string;
                /** @enum {string} */
                status: "in_progress" | "completed" | "interrupted" | "failed";
                thread_id: string;
                usage: {
                    duration_ms?: number;
                    input_tokens: number;
                    model?: string;
                    output_tokens: number;
                    prompt_cache_hit_tokens?: number | null;
                    prompt_cache_miss_tokens?: number | null;
                    prompt_cache_write_tokens?: number | null;
                    provider?: string;
                    reasoning_replay_tokens?: number | null;
                    reasoning_tokens?: number | null;
                    tool_count?: number;
                } | null;
            };
        };
        Usage: {
            duration_ms?: number;
            input_tokens: number;
            model?: string;
            output_tokens: number;
            prompt_cache_hit_tokens?: number | null;
            prompt_cache_miss_tokens?: number | null;
            prompt_cache_write_tokens?: number | null;
            provider?: string;
            reasoning_replay_tokens?: number | null;
            reasoning_tokens?: number | null;
            tool_count?: number;
        } | null;
        UserInput: {
            answered_at: string | null;
            answers: {
                [key: string]: string | string[];
            } | null;
            /** @description RFC 3339 with milliseconds and offset */
            expires_at: string;
            id: string;
            item_id: string | null;
            questions: {
                allow_free_text: boolean;
                header: string;
                id: string;
                multi_select: boolean;
                options: {
                    description?: string;
                    label: string;
                }[];
                question: string;
            }[];
            /** @description RFC 3339 with milliseconds and offset */
            requested_at: string;
            /** @enum {string} */
            status: "pending" | "answered" | "expired";
            thread_id: string;
            turn_id: string;
        };
        UserInputBody: {
            /** @description by question id: an option label (or free text where allowed), or a list of labels for a multi-select question */
            answers: {
                [key: string]: string | string[];
            };
        };
        UserInputPage: {
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
            user_inputs: {
                answered_at: string | null;
                answers: {
                    [key: string]: string | string[];
                } | null;
                /** @description RFC 3339 with milliseconds and offset */
                expires_at: string;
                id: string;
                item_id: string | null;
                questions: {
                    allow_free_text: boolean;
                    header: string;
                    id: string;
                    multi_select: boolean;
                    options: {
                        description?: string;
                        label: string;
                    }[];
                    question: string;
                }[];
                /** @description RFC 3339 with milliseconds and offset */
                requested_at: string;
                /** @enum {string} */
                status: "pending" | "answered" | "expired";
                thread_id: string;
                turn_id: string;
            }[];
        };
        UserInputResult: {
            user_input: {
                answered_at: string | null;
                answers: {
                    [key: string]: string | string[];
                } | null;
                /** @description RFC 3339 with milliseconds and offset */
                expires_at: string;
                id: string;
                item_id: string | null;
                questions: {
                    allow_free_text: boolean;
                    header: string;
                    id: string;
                    multi_select: boolean;
                    options: {
                        description?: string;
                        label: string;
                    }[];
                    question: string;
                }[];
                /** @description RFC 3339 with milliseconds and offset */
                requested_at: string;
                /** @enum {string} */
                status: "pending" | "answered" | "expired";
                thread_id: string;
                turn_id: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description a foreign Host or Origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApprovals: {
        parameters: {
            query?: {
                /** @description `next_cursor` of the previous page */
                cursor?: string;
                /** @description page size, 1..500 (default 100) */
                limit?: number;
                status?: "pending" | "decided" | "expired";
                thread_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalPage"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description approval id (appr_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalResult"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown approval */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    answerApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description approval id (appr_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApprovalBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalResult"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown approval */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description already decided or expired */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope always: no rule can remember this call (the approval stays pending) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description `next_cursor` of the previous page */
                cursor?: string;
                /** @description page size, 1..500 (default 100) */
                limit?: number;
                thread_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a turn is running / the cursor is ahead of the event log (error.head_seq says where the log ends) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description resume after this seq (the Last-Event-ID header wins) */
                since_seq?: number;
            };
            header?: {
                /** @description resume after this seq (wins over since_seq) */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream of StreamFrame */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a turn is running / the cursor is ahead of the event log (error.head_seq says where the log ends) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHooks: {
        parameters: {
            query?: {
                thread_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hooks"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRuntimeInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuntimeInfo"];
                };
            };
            /** @description a foreign Host or Origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description a foreign Host or Origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionBody"];
            };
        };
        responses: {
            /** @description logged in; Set-Cookie carries the session cookie */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description wrong token, or a code that is unknown, used or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description logged out */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description a foreign Host or Origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listThreads: {
        parameters: {
            query?: {
                /** @description true: archived threads only */
                archived?: boolean;
                /** @description `next_cursor` of the previous page */
                cursor?: string;
                /** @description page size, 1..500 (default 100) */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadPage"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createThread: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateThreadBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadResult"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getThread: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description thread id (thr_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadDetail"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteThread: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description thread id (thr_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a turn is running */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archiveThread: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description thread id (thr_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadResult"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a turn is running */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamThreadEvents: {
        parameters: {
            query?: {
                /** @description resume after this seq (the Last-Event-ID header wins) */
                since_seq?: number;
            };
            header?: {
                /** @description resume after this seq (wins over since_seq) */
                "Last-Event-ID"?: string;
            };
            path: {
                /** @description thread id (thr_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream of StreamFrame */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a turn is running / the cursor is ahead of the event log (error.head_seq says where the log ends) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listItems: {
        parameters: {
            query?: {
                /** @description `next_cursor` of the previous page */
                cursor?: string;
                /** @description page size, 1..500 (default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description thread id (thr_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemPage"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTurns: {
        parameters: {
            query?: {
                /** @description `next_cursor` of the previous page */
                cursor?: string;
                /** @description page size, 1..500 (default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description thread id (thr_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TurnPage"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTurn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description thread id (thr_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTurnBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TurnStarted"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a turn is already running, or the thread is archived */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many threads are running turns (see Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTurn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description thread id (thr_…) */
                id: string;
                /** @description turn id (turn_…) */
                turn: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TurnDetail"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread or turn */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    interruptTurn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description thread id (thr_…) */
                id: string;
                /** @description turn id (turn_…) */
                turn: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Interrupted"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread or turn */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the turn is not running */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    steerTurn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description thread id (thr_…) */
                id: string;
                /** @description turn id (turn_…) */
                turn: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SteerBody"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Steered"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread or turn */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the turn is not running */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unarchiveThread: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description thread id (thr_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadResult"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown thread */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a turn is running */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUserInputs: {
        parameters: {
            query?: {
                /** @description `next_cursor` of the previous page */
                cursor?: string;
                /** @description page size, 1..500 (default 100) */
                limit?: number;
                status?: "pending" | "answered" | "expired";
                thread_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserInputPage"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUserInput: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description user input id (uin_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserInputResult"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    answerUserInput: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description user input id (uin_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserInputBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserInputResult"];
                };
            };
            /** @description malformed JSON, or an invalid body, query or header (zod issues) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing or wrong token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description already answered or expired */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (1 MiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an internal error (never with a stack trace), or the server config.toml cannot be used */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
