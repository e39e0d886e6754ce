/**
 * What feeds the conversation shown: its stored messages read back from the runtime database, then the connection's
 * envelopes in and out, applied to the model in order (deduplicated); the Surfaces they open, whose events go back
 * to the agent; and the lineup.v1 messages the page sends from the agent's end of the in-process transport.
 */
import { prepareSurfaceFrame, SurfaceInstances } from '@lineup/surface-host';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AgentConnection, ConnectionView } from '../agent/connection.ts';
import { onHostProblem } from '../runtime.tsx';
import type { FrameSnapshot } from '../scheduling/per-frame.ts';
import {
  type ConversationMessage,
  type ConversationModel,
  type Entry,
  refusalNote,
  refusedNote,
  rejectionNote,
  type SideEffect,
} from './model.ts';
import { type ForConversation, forConversation } from './sent-as-agent.ts';

/** The model read back from the store, with its interfaces' kept states. */
export interface LoadedConversation {
  readonly model: ConversationModel;
  readonly states: ReadonlyMap<string, unknown>;
}

export interface ConversationFeed {
  /** The Surfaces open in the conversation. */
  readonly instances: SurfaceInstances;
  /** The model once read back (`null` while it is read). */
  readonly loaded: LoadedConversation | null;
  /** Moves on when the list of conversations may have changed (another one moved, the user spoke). */
  readonly tick: number;
  /** Adds a note saying what was refused to the model shown. */
  readonly refused: (message: string) => void;
  /** One envelope from the connection, for the model shown (after its stored messages). */
  readonly live: (message: ConversationMessage) => void;
  /**
   * Sends a `lineup.v1` message from the agent's end. An example is built for the conversation shown when it goes
   * out (`ForConversation`): one clicked before the runtime is ready waits, and must not go to the placeholder
   * conversation the page shows meanwhile.
   */
  readonly sendAsAgent: (value: object | ForConversation) => void;
}

export function useConversationFeed(
  connection: AgentConnection | null,
  conversationId: string | null,
  model: ConversationModel,
  snapshot: FrameSnapshot<readonly Entry[]>,
): ConversationFeed {
  const [loaded, setLoaded] = useState<LoadedConversation | null>(null);
  const [tick, setTick] = useState(0);
  const modelRef = useRef(model);
  modelRef.current = model;
  /** Live envelopes that arrive while the model is read back, applied after it (in order, deduplicated). */
  const early = useRef<ConversationMessage[] | null>([]);
  const connectionRef = useRef(connection);
  connectionRef.current = connection;
  const refused = useCallback((message: string) => modelRef.current.add(refusedNote(message)), []);

  const [instances] = useState(
    () =>
      new SurfaceInstances({
        onEvent: (event) => {
          const current = connectionRef.current;
          if (current === null) {
            refused('The runtime is not ready yet; the event was not sent.');
            return;
          }
          // The event goes back to the conversation that opened the Surface: the one shown.
          const to = current.conversationId;
          current
            .sendUIEvent(to, event)
            .then(({ message, delivery }) =>
              live({ direction: 'out', message, pending: delivery === 'queued' }),
            )
            .catch((error: unknown) =>
              refused(`The event was not sent: ${error instanceof Error ? error.message : 'unknown error'}`),
            );
        },
        onRejected: (instanceId, rejection) => {
          modelRef.current.add(rejectionNote(instanceId, rejection));
          if (rejection.reason === 'navigated') modelRef.current.removeSurface(instanceId);
        },
      }),
  );
  useEffect(() => () => instances.closeAll(), [instances]);
  // A Surface frame loads ahead, so the agent's first Surface opens without waiting for one.
  useEffect(() => prepareSurfaceFrame(document), []);
  useEffect(() => onHostProblem((message) => modelRef.current.add(refusedNote(message))), []);

  const effect = useCallback(
    (side: SideEffect | null) => {
      if (side?.kind === 'patch') instances.patch(side.payload);
      else if (side?.kind === 'close') instances.close(side.payload);
    },
    [instances],
  );
  const live = (message: ConversationMessage) => {
    if (message.message.conversation_id !== modelRef.current.conversationId) {
      setTick((value) => value + 1); // another conversation moved: the list shows it
      return;
    }
    if (early.current !== null) early.current.push(message);
    else effect(modelRef.current.apply(message));
    if (message.message.type === 'lineup.v1.chat.user_message') setTick((value) => value + 1);
  };
  const liveRef = useRef(live);
  liveRef.current = live;

  // Read the conversation back from the store, then apply what arrived meanwhile.
  useEffect(() => {
    if (connection === null || conversationId === null) return;
    let active = true;
    early.current = [];
    setLoaded(null);
    (async () => {
      const [records, states] = await Promise.all([
        connection.store.allMessages(conversationId),
        connection.store.viewStates(conversationId),
      ]);
      if (!active) return;
      for (const record of records)
        model.apply({
          direction: record.direction,
          message: record.message,
          pending: record.pending !== undefined,
        });
      const waiting = early.current ?? [];
      early.current = null;
      for (const message of waiting) effect(model.apply(message));
      // What was read back shows with the loaded conversation, not a frame later (it would count as new).
      snapshot.flush();
      setLoaded({ model, states });
    })().catch((error: unknown) => {
      if (!active) return;
      early.current = null;
      snapshot.flush();
      setLoaded({ model, states: new Map() });
      model.add(
        refusedNote(
          `The conversation could not be read back: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    });
    return () => {
      active = false;
    };
  }, [connection, conversationId, model, snapshot, effect]);

  /** What the connection hands over: every envelope in and out, and problems. */
  const view: ConnectionView = {
    received: (message) => liveRef.current({ direction: 'in', message }),
    // The user's turn shows as soon as it is recorded, before the agent's acknowledgement or answer.
    queued: (message) => liveRef.current({ direction: 'out', message, pending: true }),
    sent: (message) => liveRef.current({ direction: 'out', message }),
    problem: (error) => {
      const note = refusalNote(error);
      if (note !== undefined) modelRef.current.add(note);
      else refused(error instanceof Error ? error.message : 'The agent connection failed.');
    },
  };
  const viewRef = useRef(view);
  viewRef.current = view;
  /** Messages given before the runtime was ready, sent from the agent's end once it is. */
  const waitingForAgent = useRef<(object | ForConversation)[]>([]);
  // The view attaches once; its handlers always read the latest render's closures.
  useEffect(() => {
    if (connection === null) return;
    const forward = new Proxy({} as ConnectionView, {
      get: (_target, name: keyof ConnectionView) => viewRef.current[name],
    });
    connection.attach(forward);
    // Messages given before the runtime was ready go out now, in order.
    for (const value of waitingForAgent.current.splice(0))
      connection.agent?.send(forConversation(value, connection.conversationId));
    return () => connection.attach(null);
  }, [connection]);

  const sendAsAgent = (value: object | ForConversation) => {
    if (connection === null) waitingForAgent.current.push(value);
    else if (connection.agent === null)
      refused(
        'A remote agent is connected: the message box cannot speak for it. Paste a DSL document instead.',
      );
    else connection.agent.send(forConversation(value, connection.conversationId));
  };

  return { instances, loaded, tick, refused, live, sendAsAgent };
}
