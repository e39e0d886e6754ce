/**
 * Receiving a call, steps 1–3 composed and handed on: the intake (`tools/intake.ts`, with the checks of steps 1 and 2)
 * and, for a call it accepts, routing (the consent step, then steps 4–8) in the same strict transaction — `accepted`
 * and what follows from it commit together or not at all. For its common case, a new and valid call of an MCP
 * server's tool, a path that reads nothing: checked against the registry as the last received call read it, in a
 * transaction that asserts the registry is unchanged since.
 */
import type { ToolCallPayload } from '@lineup/shared/protocol';
import type { ConsentSteps } from '../consent/consent-steps.js';
import { consentToolOf, type ToolConsentStep } from '../consent/tool-consent.js';
import { issue, type ToolCallRecord } from '../storage/database.js';
import type {
  IntakeTransaction,
  ToolCallAnswer,
  ToolCallDisposition,
  ToolCallIntake,
} from '../tools/intake.js';
import type { McpExecutor } from './mcp-executor.js';
import { type RoutingParts, routeIn } from './routing.js';
import { instanceKeyOf } from './scope.js';
import { holdCall, readInstanceAhead } from './step-records.js';
import type { RegistrySnapshot, StepRunner } from './step-runner.js';

export interface ReceivingParts {
  readonly runner: StepRunner;
  readonly intake: ToolCallIntake;
  readonly routing: RoutingParts;
  readonly mcp: Pick<McpExecutor, 'canCall' | 'dispatched'>;
  readonly consent: Pick<ToolConsentStep, 'allowsOutright'>;
  readonly steps: Pick<ConsentSteps, 'auditIn'>;
}

export class CallReceiving {
  readonly #parts: ReceivingParts;
  /** The registry as the last received call read it: what the path that reads nothing checks against. */
  #registry: RegistrySnapshot | undefined;

  constructor(parts: ReceivingParts) {
    this.#parts = parts;
  }

  /**
   * Receives one `tool.call` of `conversationId` and, for a newly accepted call, routes it. Returns the intake's
   * answer; later progress and the final result go through the outbox.
   */
  async receive(
    conversationId: string,
    call: ToolCallPayload,
  ): Promise<{ readonly answer: ToolCallAnswer; readonly disposition: ToolCallDisposition }> {
    const written = await this.#writeOnly(conversationId, call);
    if (written !== undefined) return written;
    let received: ReturnType<ToolCallIntake['answerIn']> | undefined;
    let known: ToolCallRecord | undefined;
    // One strict transaction: the call is recorded and, once accepted, routed — `accepted` and what follows
    // from it (an activation, an operation, the final result of a command) commit together or not at all. Its reads
    // go out together: the call's record, the registry's stamp, and the instance a tool of the app would run in.
    await this.#parts.runner.step(
      async (step, registry) => {
        const { transaction, descriptors } = step;
        received = this.#parts.intake.answerIn(
          transaction as unknown as IntakeTransaction,
          conversationId,
          call,
          known,
          registry.published,
          (record) => holdCall(transaction, record),
        );
        if (received.published !== undefined)
          this.#registry = {
            counter: received.published.counter,
            inventory: received.published.inventory,
            descriptors,
          };
        if (received.disposition === 'accepted')
          await routeIn(this.#parts.routing, step, conversationId, call, received.record);
        return true;
      },
      async (transaction) => {
        const scope = call.tool.slice(0, Math.max(0, call.tool.lastIndexOf('.')));
        readInstanceAhead(transaction, instanceKeyOf(conversationId, scope));
        known = await this.#parts.intake.knownIn(
          transaction as unknown as IntakeTransaction,
          conversationId,
          call,
        );
      },
    );
    const { answer, disposition } = received!;
    return { answer, disposition };
  }

  /**
   * `receive` without a read, for its common case: a new, valid call of an MCP server's tool. It is checked against
   * the registry as the last `receive` read it, and one strict transaction asserts that the registry is unchanged
   * since (`guardInventory`), adds the call — which fails for a `call_id` the conversation recorded already — and
   * dispatches it, exactly as the step that reads would. Undefined when it does not apply or did not commit: the call
   * is then received by the step that reads (which answers a replay, a conflict or a refusal).
   */
  async #writeOnly(
    conversationId: string,
    call: ToolCallPayload,
  ): Promise<{ readonly answer: ToolCallAnswer; readonly disposition: ToolCallDisposition } | undefined> {
    const registry = this.#registry;
    const descriptor = registry?.descriptors.get(call.tool);
    if (
      registry === undefined ||
      descriptor === undefined ||
      descriptor.executor.kind !== 'mcp' ||
      descriptor.activation !== 'activation_not_required' ||
      !this.#parts.mcp.canCall(descriptor, registry.descriptors)
    )
      return undefined;
    // Only a call its consent policy allows outright: any other needs the step that reads (a grant, a question).
    const consent = this.#parts.consent.allowsOutright(
      registry.descriptors.apps.get(descriptor.app_scope),
      consentToolOf(descriptor),
    );
    if (consent === false) return undefined;
    let answer: ToolCallAnswer | undefined;
    const committed = await this.#parts.runner.writeOnlyStep(registry, async ({ transaction, effects }) => {
      const received = this.#parts.intake.recordIn(
        transaction as unknown as IntakeTransaction,
        conversationId,
        call,
        registry.inventory,
        (record) => {
          const { dispatched, send } = this.#parts.mcp.dispatched(record, descriptor, registry.descriptors);
          effects.push(send);
          return dispatched;
        },
      );
      // A refusal is answered by the step that reads: this transaction is dropped.
      if (received.disposition !== 'accepted') throw new Error('Not accepted.');
      if (consent.audit !== undefined)
        issue(this.#parts.steps.auditIn(transaction, received.record, descriptor, consent.audit));
      answer = received.answer;
    });
    return committed && answer !== undefined ? { answer, disposition: 'accepted' } : undefined;
  }
}
