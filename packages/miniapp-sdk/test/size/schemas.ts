// The zod schemas of the size-budget pages: what a MiniApp pays for whether or not it uses the SDK.
import { z } from 'zod';

export const addInput = z.strictObject({ text: z.string().min(1).max(200) });
export const addOutput = z.strictObject({ count: z.int().min(0) });
export const listInput = z.strictObject({ limit: z.int().min(1).max(50).optional() });
export const listOutput = z.strictObject({ notes: z.array(z.string()) });
