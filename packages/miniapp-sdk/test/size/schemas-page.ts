// The baseline page: the same zod schemas, used the way a page uses them, without the SDK.
import { addInput, addOutput, listInput, listOutput } from './schemas.js';

const parsed = [addInput, addOutput, listInput, listOutput].map((schema) => schema.safeParse({}).success);
document.body.textContent = JSON.stringify(parsed);
