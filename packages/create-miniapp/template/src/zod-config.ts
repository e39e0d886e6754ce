// Imported first by src/main.ts: zod parses without generating code (a MiniApp page may not evaluate code).
import { z } from 'zod';

z.config({ jitless: true });
