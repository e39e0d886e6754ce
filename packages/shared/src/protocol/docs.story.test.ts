/**
 * docs/protocol.md cannot rot: its examples tell one consistent story. The inventory publishes the documented
 * tool, the receipt's hash is the request's, the actions are the documented document's, the stream's mutations
 * lead to the documented checkpoint, and the tool examples use its cursor (DESIGN.md "Write the full catalogue,
 * with one example per message"; CONVENTIONS.md 17).
 */
import { describe, expect, it } from 'vitest';
import protocolDoc from '../../docs/protocol.md?raw';
import { examplesOf, only, sectionType } from '../../test/protocol-docs.js';
import {
  computeParameterHash,
  parseUIActionReceipt,
  parseUIActionReserveRequest,
  parseUIActionResult,
  parseUIDocumentRef,
} from '../actions/protocol.js';
import { INTELLIGENT_UI_TOOL_NAMES } from '../agent/tools.js';
import { resolveUIAction } from '../dsl/actions.js';
import { parseDocument } from '../dsl/document.js';
import { initialState } from '../dsl/state.js';
import { UI_STREAM_MUTATION_TYPES } from '../stream/checkpoint.js';
import { acceptCheckpoint, advanceUIStream, startUIStream, type UIStreamState } from '../stream/stream.js';
import { parseAgentToolDescriptor, toAgentToolInventoryEntry } from './tools/descriptor.js';
import { parseMiniAppManifest } from './tools/manifest.js';

describe('docs/protocol.md: the examples tell one story', () => {
  it('the inventory publishes the documented tool descriptor', () => {
    const descriptor = parseAgentToolDescriptor(only('tool-descriptor').value);
    const inventory = only('envelope', (e) => sectionType(e) === 'lineup.v1.client.inventory').value;
    expect(inventory.payload.tools).toEqual([toAgentToolInventoryEntry(descriptor)]);
    const manifest = parseMiniAppManifest(only('manifest').value);
    expect(manifest.tools).toContainEqual(descriptor);
    const call = only('envelope', (e) => sectionType(e) === 'lineup.v1.tool.call').value;
    expect(call.payload.tool).toBe(inventory.payload.tools[0].name);
    expect(call.payload.inventory_revision).toBe(inventory.payload.revision);
  });

  it("the receipt's parameterHash binds the documented reserve request", () => {
    const request = parseUIActionReserveRequest(only('action-reserve-request').value);
    const receipt = parseUIActionReceipt(only('action-receipt').value);
    expect(receipt.parameterHash).toBe(computeParameterHash(request));
    expect(receipt.requestId).toBe(request.requestId);
    expect(receipt.documentRef).toEqual(request.documentRef);
    expect(receipt.documentRef).toEqual(parseUIDocumentRef(only('document-ref').value));
    expect(receipt.result).toEqual(parseUIActionResult(only('action-result').value));
  });

  it('the reserve request names an action of the documented 1.1 document', () => {
    const request = only('action-reserve-request').value;
    const message = only('envelope', (e) => sectionType(e) === 'lineup.v1.ui.document').value;
    const document = parseDocument(message.payload.document);
    expect(document.id).toBe(request.documentRef.uiId);
    expect(document.version === '1.1' && Object.keys(document.actions)).toContain(request.actionId);
  });

  it('ui.action clicks an agent action of the documented document, and ui.action_result answers it', () => {
    const action = only('envelope', (e) => sectionType(e) === 'lineup.v1.ui.action').value;
    const click = action.payload;
    const message = only('envelope', (e) => sectionType(e) === 'lineup.v1.ui.document').value;
    const document = parseDocument(message.payload.document);
    const reference = parseUIDocumentRef(only('document-ref').value);
    expect(click.document).toEqual({
      source_call_id: reference.sourceCallId,
      ui_id: reference.uiId,
      generation: reference.generation,
      revision: reference.revision,
    });
    expect(document.id).toBe(click.document.ui_id);
    // The prompt is what the action computes in the document's initial state.
    expect(resolveUIAction(document, initialState(document), click.action_id)).toEqual({
      kind: 'agent',
      actionId: click.action_id,
      prompt: click.prompt,
    });
    const answer = only('envelope', (e) => sectionType(e) === 'lineup.v1.ui.action_result').value;
    expect(answer.payload.operation_id).toBe(click.operation_id);
    expect(answer.conversation_id).toBe(action.conversation_id);
  });

  it('the three mutations lead from the documented checkpoint to the documented complete frame', () => {
    const opening = only('checkpoint').value;
    const mutations = examplesOf('stream-mutation').map((example) => example.value);
    expect(mutations.map((mutation) => mutation.type)).toEqual([...UI_STREAM_MUTATION_TYPES]);
    let state: UIStreamState = startUIStream(opening.snapshot, opening.sourceCallId, opening.generation);
    expect(state.checkpoint).toEqual(opening);
    for (const mutation of mutations) state = advanceUIStream(state, mutation);
    const message = only('envelope', (e) => sectionType(e) === 'lineup.v1.ui.checkpoint').value;
    const completed = acceptCheckpoint(state, message.payload.checkpoint);
    expect(completed.status).toBe('completed');
    expect(completed.checkpoint).toEqual(advanceUIStream(state, { type: 'complete' }).checkpoint);
  });

  it('the tool examples use the cursor of the documented stream', () => {
    const opening = only('checkpoint').value;
    for (const name of ['intelligent_ui_patch', 'intelligent_ui_complete']) {
      const example = only('intelligent-ui-tool', (e) => e.attributes.name === name).value;
      expect(example.sourceCallId).toBe(opening.sourceCallId);
      expect(example.generation).toBe(opening.generation);
    }
    expect(INTELLIGENT_UI_TOOL_NAMES.every((name) => protocolDoc.includes(`\`${name}\``))).toBe(true);
  });
});
