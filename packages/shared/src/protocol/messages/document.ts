/**
 * The two declarative UI messages the seeds leave without a wire name (DESIGN.md "Wire messages"):
 * `lineup.v1.ui.document` carries an Intelligent UI document (seed 002) and `lineup.v1.ui.checkpoint` one
 * component-stream checkpoint (seed 002 §12). Both travel agent → client.
 *
 * The envelope only proves each is a bounded JSON object. What it means is checked by the consumer, with the
 * whole semantic validator: `parseDocument` for a document, and the stream receiver (`acceptCheckpoint` and
 * `UIStreamCheckpointSchema` in src/stream/) for a checkpoint — never by trusting that it arrived here.
 */
import { z } from 'zod';
import { boundedJSONObject } from '../../json/json-data.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../../limits/ui-limits.js';

/** `lineup.v1.ui.document`: `{ document }`, at most `UI_LIMITS.maxDocumentBytes` (seed 002 §9). */
export const UIDocumentPayloadSchema = z
  .strictObject({ document: boundedJSONObject(UI_LIMITS.maxDocumentBytes, 'A document') })
  .meta({ id: 'UIDocumentPayload', description: 'Validate the document with parseDocument before use.' });
export type UIDocumentPayload = z.infer<typeof UIDocumentPayloadSchema>;

/**
 * `lineup.v1.ui.checkpoint`: `{ checkpoint }`, one stream frame of at most
 * `UI_PROTOCOL_LIMITS.maxStreamFrameBytes` (seed 002 §12–§13: a full snapshot plus the fixed stream envelope).
 */
export const UICheckpointPayloadSchema = z
  .strictObject({
    checkpoint: boundedJSONObject(UI_PROTOCOL_LIMITS.maxStreamFrameBytes, 'A stream checkpoint'),
  })
  .meta({
    id: 'UICheckpointPayload',
    description: 'Accept the checkpoint with the stream receiver before use.',
  });
export type UICheckpointPayload = z.infer<typeof UICheckpointPayloadSchema>;
