/**
 * The Markdown component's boundary (seed 002 §5 "Markdown 的实际边界"): `react-markdown` with `skipHtml`,
 * the element allowlist from `@lineup/shared` and `unwrapDisallowed`. Raw HTML is dropped; links keep their
 * text but are not clickable; images, iframes and media never load; code is shown, never run.
 */
import { UI_MARKDOWN_ALLOWED_ELEMENTS } from '@lineup/shared';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';

const ALLOWED: string[] = [...UI_MARKDOWN_ALLOWED_ELEMENTS];
// GFM adds `del` (strikethrough), which the allowlist names; its tables, task lists and autolinks are unwrapped.
const REMARK_PLUGINS = [remarkGfm];

/** Never produce a URL: a disallowed link or image is unwrapped anyway, this keeps it so if that changes. */
const noUrl = (): string => '';

export function SafeMarkdown({ text }: { readonly text: string }) {
  return (
    <div className="lu-markdown">
      <ReactMarkdown
        skipHtml
        allowedElements={ALLOWED}
        unwrapDisallowed
        remarkPlugins={REMARK_PLUGINS}
        urlTransform={noUrl}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
