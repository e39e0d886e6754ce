import { describe, expect, it } from 'vitest';
import { isScriptURL } from './executable-content.js';

describe('isScriptURL', () => {
  const SCRIPT: string[] = [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    '  javascript:alert(1)',
    '\u0000\u001fjavascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'DATA:text/html;base64,PHNjcmlwdD4=',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'data:application/javascript,alert(1)',
    'data:text/javascript,alert(1)',
  ];
  const SAFE: string[] = [
    'Start a focus session.',
    'Use javascript: carefully in prose',
    'https://example.com/docs',
    'data:image/png;base64,iVBORw0KGgo=',
    'index.html',
    'note: javascript:alert(1)',
    '',
  ];
  for (const text of SCRIPT) it(`flags ${JSON.stringify(text)}`, () => expect(isScriptURL(text)).toBe(true));
  for (const text of SAFE) it(`allows ${JSON.stringify(text)}`, () => expect(isScriptURL(text)).toBe(false));
});
