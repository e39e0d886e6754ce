/**
 * Imported first by `main.tsx`, before anything that builds a zod schema: zod parses without generated code.
 *
 * Every zod object schema asks, as it is built, whether the page may evaluate code (`new Function("")`, run once
 * per document). Under a Content Security Policy without `'unsafe-eval'` the answer is no and zod parses without
 * generated code anyway, but Chromium reports the refused probe as a `securitypolicyviolation` (and to a
 * policy's report endpoint), which buries real violations. `jitless` skips the probe. The cost is zod's compiled
 * fast path for objects, which this host does not need: its documents and messages are parsed once each.
 */
import { z } from 'zod';

z.config({ jitless: true });
