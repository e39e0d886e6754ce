/**
 * What one conversation shows, framework-free: a list of entries built from the conversation's envelopes — the
 * same reducer for the live connection and for the records `ConversationStore` kept, so a reloaded page shows the
 * conversation as it was: chat turns, DSL interfaces, streamed interfaces (their checkpoints folded again), and the
 * Surfaces still open with their latest state. Nothing here runs anything: tool calls are the runtime's.
 *
 * Entries the host adds by itself (an example, a pasted document, a refused message) are local: they are not
 * agent messages and are not kept.
 */
import {
  acceptCheckpoint,
  LineUpProtocolError,
  UISchemaError,
  UIStreamError,
  type UIStreamState,
} from '@lineup/shared';
import {
  type LineUpMessage,
  type ToolResultPayload,
  UI_USER_CLOSE_EVENT,
  type UIClosePayload,
  type UIOpenPayload,
  type UIPatchPayload,
} from '@lineup/shared/protocol';
import { checkSurfaceBundle, type SurfaceRejection } from '@lineup/surface-host';

export type NewEntry =
  | {
      readonly kind: 'document';
      readonly label: string;
      readonly document: unknown;
      /** Where its local state is kept (the envelope id); absent for a local document. */
      readonly viewKey?: string;
    }
  | { readonly kind: 'stream'; readonly label: string }
  /** A component stream the agent sends as `ui.checkpoint` messages; `stream` is the receiver state. */
  | {
      readonly kind: 'checkpoints';
      readonly label: string;
      readonly stream: UIStreamState;
      readonly viewKey: string;
      /**
       * A newer generation of the same UI arrived while this one was still streaming: it takes no more steps (the
       * agent's run that streamed it ended, say) and shows as interrupted, its last valid snapshot kept (seed 004 §5).
       */
      readonly interrupted?: boolean;
    }
  | {
      readonly kind: 'surface';
      readonly label: string;
      readonly payload: UIOpenPayload;
      readonly conversationId: string;
      /** The state of the latest `ui.patch`, which a frame mounted later (a replay) opens with. */
      readonly state?: UIPatchPayload['state'];
    }
  /** A chat turn: the user's (plain text) or the agent's (Markdown, through the DSL's Markdown allowlist). */
  | {
      readonly kind: 'chat';
      readonly label: string;
      readonly from: 'user' | 'agent';
      readonly text: string;
      /** The user's turn waits for the agent (queued while it is away). */
      readonly pending?: boolean;
      /** The turn came from a DSL agent action (`ui.action`): the action id of the button the user pressed. */
      readonly via?: string;
    }
  /**
   * The view of an installed MCP server beside an agent's call of its tool (the view is the server's kept
   * `ui://` resource): the call's arguments, and its final result once the client sent it.
   */
  | {
      readonly kind: 'mcp_view';
      readonly label: string;
      readonly conversationId: string;
      readonly callId: string;
      /** The agent's tool name, and the server's own. */
      readonly tool: string;
      readonly serverTool: string;
      readonly appId: string;
      readonly viewId: string;
      readonly arguments: Readonly<Record<string, unknown>>;
      readonly final?: ToolResultPayload;
    }
  /** What the client sends the agent (`ui.event`, `unsupported`), or a message it could not take. */
  | {
      readonly kind: 'note';
      readonly label: string;
      readonly tone: 'to-agent' | 'refused';
      readonly text: string;
      /** The whole message, when `text` only summarizes it (an inventory is long). */
      readonly detail?: string;
      readonly pending?: boolean;
    };

/** The key under which an MCP server's view keeps its state (its `localStorage`) among its conversation's. */
export function mcpViewStateKey(callId: string): string {
  return `mcp-view:${callId}`;
}

export type Entry = NewEntry & { readonly key: number; readonly messageId?: string };

/** Which kept view of which MCP server a tool opens (the host knows: `HostRuntime.mcpViewOf`). */
export interface McpViewTarget {
  readonly appId: string;
  readonly viewId: string;
  readonly server: string;
  readonly tool: string;
}

/** One envelope of the conversation, live or from the store. */
export interface ConversationMessage {
  readonly direction: 'in' | 'out';
  readonly message: LineUpMessage;
  /** An outgoing message still waiting for the transport. */
  readonly pending?: boolean;
}

/** The note for a message refused with located issues: where (below `prefix`), and why. */
export function invalidNote(error: LineUpProtocolError, prefix = ''): NewEntry {
  const issue = error.issues[0];
  return {
    kind: 'note',
    label: 'Refused',
    tone: 'refused',
    text: `Invalid message at ${prefix}${issue?.path}: ${issue?.message}`,
  };
}

/**
 * The note for a message the client refused (`AgentClientHandlers.problem`, after its answer went to the agent):
 * a stream frame, a document, or any other located refusal; `undefined` for an error that is no refusal.
 */
export function refusalNote(error: unknown): NewEntry | undefined {
  // The paths the agent was given: below the message's payload.
  const at = (prefix: string, path = '$') =>
    path === '$' ? prefix : path.startsWith('[') ? prefix + path : `${prefix}.${path}`;
  if (error instanceof UIStreamError) {
    const issue = error.issues[0];
    return refusedNote(
      `Refused a stream frame at ${at('payload.checkpoint', issue?.path)}: ${issue?.message}`,
    );
  }
  if (error instanceof UISchemaError) {
    const issue = error.issues[0];
    return refusedNote(`Refused a document at ${at('payload.document', issue?.path)}: ${issue?.message}`);
  }
  if (error instanceof LineUpProtocolError) return invalidNote(error);
  return undefined;
}

export function refusedNote(text: string): NewEntry {
  return { kind: 'note', label: 'Refused', tone: 'refused', text };
}

export function rejectionNote(instanceId: string, rejection: SurfaceRejection): NewEntry {
  const times = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;
  let text: string;
  switch (rejection.reason) {
    case 'navigated':
      text = `Surface ${instanceId} tried to leave its document and was removed.`;
      break;
    case 'flooded':
      text = `Surface ${instanceId} flooded the host with window messages and was removed.`;
      break;
    case 'focus_taken':
      text = `Surface ${instanceId} took keyboard focus without a click; focus was given back.`;
      break;
    case 'rate_limited':
      text = `Dropped ${times(rejection.count, 'event')} from Surface ${instanceId} over its rate limit.`;
      break;
    case 'resize_throttled':
      text = `Surface ${instanceId} kept resizing itself; ${times(rejection.count, 'resize')} held back.`;
      break;
    case 'foreign_message':
      text = `Ignored ${times(rejection.count, 'window message')} from Surface ${instanceId}.`;
      break;
    case 'invalid_message':
      text = `Dropped ${times(rejection.count, 'invalid message')} from Surface ${instanceId}: ${rejection.issues[0]?.message ?? 'invalid message'}`;
      break;
    case 'undeclared_event':
      text = `Dropped ${times(rejection.count, 'event')} "${rejection.event}" from Surface ${instanceId}: its app does not declare that event.`;
      break;
  }
  return refusedNote(text);
}

/** How a message the client sent the agent shows (an inventory as one line, the whole folded). */
export function sentNote(message: LineUpMessage): NewEntry | null {
  switch (message.type) {
    case 'lineup.v1.chat.user_message':
      return null; // the user's turn shows as a chat entry
    case 'lineup.v1.client.inventory':
      return {
        kind: 'note',
        label: 'Sent to the agent',
        tone: 'to-agent',
        text: `${message.type} ${message.payload.revision}, ${message.payload.tools?.length ?? 0} Agent Tools`,
        detail: JSON.stringify(message.payload, null, 2),
      };
    case 'lineup.v1.ui.event':
      return {
        kind: 'note',
        label: 'Sent to the agent',
        tone: 'to-agent',
        text: `${message.type} ${message.payload.instance_id} ${message.payload.event} ${JSON.stringify(message.payload.data)}`,
      };
    default:
      return {
        kind: 'note',
        label: 'Sent to the agent',
        tone: 'to-agent',
        text: `${message.type} ${JSON.stringify(message.payload)}`,
      };
  }
}

/** What applying an envelope asks of the live view besides the entries (a replay ignores these). */
export type SideEffect =
  | { readonly kind: 'patch'; readonly payload: UIPatchPayload }
  | { readonly kind: 'close'; readonly payload: UIClosePayload };

/**
 * The entries of one conversation. Appending is O(1) and replacing an entry O(log n) (entries stay ordered by key:
 * keys grow, and an entry replaced keeps its key), so a burst of thousands of envelopes costs each one the same;
 * `entries` is a fresh array only when it is read after a change.
 */
export class ConversationModel {
  readonly conversationId: string;
  /** The entries, oldest first, ordered by key; mutated in place, `entries` hands out copies. */
  readonly #items: Entry[] = [];
  /** The copy `entries` gave out since the last change, so readers of an unchanged model get the same array. */
  #snapshot: readonly Entry[] | null = null;
  #next = 1;
  /** `direction + id` of every envelope applied: the live connection and a replay can both bring one. */
  readonly #applied = new Set<string>();
  /** The receiver state of each agent stream, by sourceCallId and uiId, and the entry that shows it. */
  readonly #receivers = new Map<string, { readonly key: number; readonly stream: UIStreamState }>();
  /** The entry key of each open Surface, by instance id. */
  readonly #surfaces = new Map<string, number>();
  /** The entry key of each outgoing message still pending, by envelope id. */
  readonly #pending = new Map<string, number>();
  readonly #listeners = new Set<() => void>();
  /** The entry key of each MCP view, by the call id it belongs to. */
  readonly #views = new Map<string, number>();
  readonly #mcpViewOf: (tool: string) => McpViewTarget | undefined;

  /**
   * `mcpViewOf` says which kept view an agent tool opens (an installed MCP server's tool with a view); the calls
   * of such tools show it.
   */
  constructor(
    conversationId: string,
    options: { readonly mcpViewOf?: (tool: string) => McpViewTarget | undefined } = {},
  ) {
    this.conversationId = conversationId;
    this.#mcpViewOf = options.mcpViewOf ?? (() => undefined);
  }

  /** Removes an MCP view (the user closed it); the call stays the agent's. */
  removeView(callId: string): void {
    const key = this.#views.get(callId);
    if (key === undefined) return;
    this.#views.delete(callId);
    const index = this.#indexOf(key);
    if (index >= 0) this.#items.splice(index, 1);
    this.#changed();
  }

  get entries(): readonly Entry[] {
    this.#snapshot ??= this.#items.slice();
    return this.#snapshot;
  }

  /** How many entries there are, without copying them. */
  get size(): number {
    return this.#items.length;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A local entry (an example, a pasted document, a refused message). Returns its key. */
  add(entry: NewEntry): number {
    return this.#append(entry);
  }

  /** Removes the Surface entry of an instance (closed by the user, or removed by the Surface host). */
  removeSurface(instanceId: string): void {
    const key = this.#surfaces.get(instanceId);
    if (key === undefined) return;
    this.#surfaces.delete(instanceId);
    const index = this.#indexOf(key);
    if (index >= 0) this.#items.splice(index, 1);
    this.#changed();
  }

  /**
   * Applies one envelope of this conversation. Returns what the live view must also do (patch or close an open
   * Surface frame); an envelope already applied changes nothing — except an outgoing one that was pending and is
   * now sent.
   */
  apply({ direction, message, pending = false }: ConversationMessage): SideEffect | null {
    if (message.conversation_id !== this.conversationId) return null;
    const seen = `${direction}\n${message.id}`;
    if (this.#applied.has(seen)) {
      if (direction === 'out' && !pending) this.#delivered(message.id);
      return null;
    }
    this.#applied.add(seen);
    return direction === 'in' ? this.#incoming(message) : this.#outgoing(message, pending);
  }

  #outgoing(message: LineUpMessage, pending: boolean): SideEffect | null {
    if (message.type === 'lineup.v1.chat.user_message') {
      this.#append(
        { kind: 'chat', label: 'You', from: 'user', text: message.payload.text, pending },
        message.id,
      );
      return null;
    }
    if (message.type === 'lineup.v1.ui.action') {
      // A button's agent action is the user's next turn (seed 002 §11): shown as such, with where it came from.
      this.#append(
        {
          kind: 'chat',
          label: 'You',
          from: 'user',
          text: message.payload.prompt,
          pending,
          via: message.payload.action_id,
        },
        message.id,
      );
      return null;
    }
    if (message.type === 'lineup.v1.ui.event' && message.payload.event === UI_USER_CLOSE_EVENT)
      // The user closed the Surface: it stays closed when the conversation is shown again.
      this.removeSurface(message.payload.instance_id);
    if (message.type === 'lineup.v1.tool.result') {
      // The call's view hears its result (the entry keeps it: a view mounted later gets it too).
      const key = this.#views.get(message.payload.call_id);
      if (key !== undefined) this.#replace(key, (entry) => ({ ...entry, final: message.payload }) as Entry);
    }
    const note = sentNote(message);
    if (note !== null) this.#append(note.kind === 'note' ? { ...note, pending } : note, message.id);
    return null;
  }

  #incoming(message: LineUpMessage): SideEffect | null {
    switch (message.type) {
      case 'lineup.v1.chat.agent_message':
        this.#append({ kind: 'chat', label: 'Agent', from: 'agent', text: message.payload.text }, message.id);
        return null;
      case 'lineup.v1.ui.document':
        this.#append(
          {
            kind: 'document',
            label: 'Agent document',
            document: message.payload.document,
            viewKey: message.id,
          },
          message.id,
        );
        return null;
      case 'lineup.v1.ui.checkpoint':
        this.#checkpoint(message.payload.checkpoint);
        return null;
      case 'lineup.v1.ui.open':
        this.#open(message.payload);
        return null;
      case 'lineup.v1.ui.patch': {
        const { payload } = message;
        const key = this.#surfaces.get(payload.instance_id);
        if (key === undefined) {
          this.add(refusedNote(`No open Surface ${payload.instance_id} to patch.`));
          return null;
        }
        // The entry keeps the latest state (a replay shows it); a live frame gets the patch instead of a remount.
        // The payload keeps its identity, so a mounted frame is patched, not reopened.
        this.#replace(key, (entry) => ({ ...entry, state: payload.state }) as Entry);
        return { kind: 'patch', payload };
      }
      case 'lineup.v1.ui.close':
        this.removeSurface(message.payload.instance_id);
        return { kind: 'close', payload: message.payload };
      case 'lineup.v1.unsupported':
        this.add(
          refusedNote(`The agent does not support ${message.payload.message_type ?? 'a message'} we sent.`),
        );
        return null;
      case 'lineup.v1.tool.call': {
        // The runtime answers the call; a tool of an MCP server that names a view shows it beside the call.
        const target = this.#mcpViewOf(message.payload.tool);
        if (target === undefined || this.#views.has(message.payload.call_id)) return null;
        const key = this.#append(
          {
            kind: 'mcp_view',
            label: target.server,
            conversationId: this.conversationId,
            callId: message.payload.call_id,
            tool: message.payload.tool,
            serverTool: target.tool,
            appId: target.appId,
            viewId: target.viewId,
            arguments: message.payload.arguments,
          },
          message.id,
        );
        this.#views.set(message.payload.call_id, key);
        return null;
      }
      default:
        // app.call: the runtime and the host answer it; its answers show as sent notes.
        return null;
    }
  }

  #open(payload: UIOpenPayload): void {
    // A Surface by reference reaches the model only when the client found it available (its app enabled and
    // declaring it); the entry reads the app's verified files when it mounts.
    if (payload.app !== undefined)
      try {
        checkSurfaceBundle(payload.app);
      } catch (error) {
        if (!(error instanceof LineUpProtocolError)) throw error;
        this.add(invalidNote(error, 'payload.'));
        return;
      }
    const label = payload.app?.name ?? `${payload.surface?.app_id} · ${payload.surface?.surface_id}`;
    const conversationId = this.conversationId;
    // seed 000 §4.1: the same instance id replaces the open instance, in place.
    const key = this.#surfaces.get(payload.instance_id);
    if (key !== undefined)
      this.#replace(key, () => ({ kind: 'surface', label, payload, conversationId, key }));
    else this.add({ kind: 'surface', label, payload, conversationId });
  }

  #checkpoint(checkpoint: unknown): void {
    const frame = checkpoint as { sourceCallId?: unknown; uiId?: unknown };
    const streamKey = `${String(frame.sourceCallId)}\n${String(frame.uiId)}`;
    const known = this.#receivers.get(streamKey);
    let stream: UIStreamState;
    try {
      // One receiver per (sourceCallId, uiId): duplicates, stale frames and gaps follow acceptCheckpoint.
      stream = acceptCheckpoint(known?.stream ?? null, checkpoint);
    } catch (error) {
      if (!(error instanceof UIStreamError)) throw error;
      const issue = error.issues[0];
      this.add(refusedNote(`Refused a stream frame at ${issue?.path}: ${issue?.message}`));
      return;
    }
    if (known?.stream === stream) return;
    if (known === undefined) {
      this.#interruptOlder(stream);
      const key = this.add({
        kind: 'checkpoints',
        label: 'Streamed interface',
        stream,
        viewKey: `stream:${streamKey}`,
      });
      this.#receivers.set(streamKey, { key, stream });
      return;
    }
    this.#receivers.set(streamKey, { key: known.key, stream });
    this.#replace(known.key, (entry) => ({ ...entry, stream }) as Entry);
  }

  /** The generations of `stream`'s UI before it that are still streaming will take no more steps. */
  #interruptOlder(stream: UIStreamState): void {
    for (const receiver of this.#receivers.values())
      if (
        receiver.stream.uiId === stream.uiId &&
        receiver.stream.generation < stream.generation &&
        receiver.stream.status === 'streaming'
      )
        this.#replace(receiver.key, (entry) =>
          entry.kind === 'checkpoints' && entry.interrupted !== true
            ? { ...entry, interrupted: true }
            : entry,
        );
  }

  #delivered(messageId: string): void {
    const key = this.#pending.get(messageId);
    if (key === undefined) return;
    this.#pending.delete(messageId);
    this.#replace(key, (entry) => ({ ...entry, pending: false }) as Entry);
  }

  #append(entry: NewEntry, messageId?: string): number {
    const key = this.#next++;
    this.#items.push(messageId === undefined ? { ...entry, key } : { ...entry, key, messageId });
    if (entry.kind === 'surface') this.#surfaces.set(entry.payload.instance_id, key);
    if (messageId !== undefined && 'pending' in entry && entry.pending === true)
      this.#pending.set(messageId, key);
    this.#changed();
    return key;
  }

  /** Replaces the entry with `key` (if it is still there) by what `update` makes of it. */
  #replace(key: number, update: (entry: Entry) => Entry): void {
    const index = this.#indexOf(key);
    const entry = this.#items[index];
    if (entry === undefined) return;
    this.#items[index] = update(entry);
    this.#changed();
  }

  /** Where the entry with `key` is, or -1: a binary search, since entries are ordered by key. */
  #indexOf(key: number): number {
    let low = 0;
    let high = this.#items.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = this.#items[middle]!.key;
      if (found === key) return middle;
      if (found < key) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  #changed(): void {
    this.#snapshot = null;
    for (const listener of [...this.#listeners]) listener();
  }
}
