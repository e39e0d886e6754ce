// @vitest-environment jsdom
/** The workspace's facts about the host page: a removed page's message, and none while the page itself unloads. */
import { describe, expect, it } from 'vitest';
import { moveFrame, removedPageProblem } from './page-frames.ts';

describe('removedPageProblem', () => {
  it('says why the app closes for a navigation or a flood, and nothing for other reports', () => {
    expect(removedPageProblem('Notes', { reason: 'navigated' })).toBe(
      'Notes tried to leave its page and was closed.',
    );
    expect(removedPageProblem('Notes', { reason: 'flooded' })).toBe(
      'Notes flooded the host with messages and was closed.',
    );
    for (const reason of ['focus_taken', 'rate_limited', 'invalid_message'])
      expect(removedPageProblem('Notes', { reason })).toBeNull();
  });

  it('says nothing while this page is being left, and again once it is shown from the cache', () => {
    window.dispatchEvent(new Event('beforeunload'));
    expect(removedPageProblem('Notes', { reason: 'navigated' })).toBeNull();
    window.dispatchEvent(new Event('pageshow'));
    expect(removedPageProblem('Notes', { reason: 'navigated' })).not.toBeNull();
  });
});

describe('moveFrame', () => {
  it('moves a frame in the page where the browser can, and says so; otherwise leaves it', () => {
    const from = document.body.appendChild(document.createElement('div'));
    const to = document.body.appendChild(document.createElement('div'));
    const frame = from.appendChild(document.createElement('iframe'));
    const prototype = Element.prototype as { moveBefore?: unknown };
    const native = prototype.moveBefore;
    try {
      prototype.moveBefore = undefined;
      expect(moveFrame(to, frame)).toBe(false);
      expect(frame.parentElement).toBe(from);
      prototype.moveBefore = function (this: Element, node: Node, child: Node | null) {
        this.insertBefore(node, child);
      };
      expect(moveFrame(to, frame)).toBe(true);
      expect(frame.parentElement).toBe(to);
      frame.remove();
      expect(moveFrame(from, frame)).toBe(false);
    } finally {
      if (native === undefined) delete prototype.moveBefore;
      else prototype.moveBefore = native;
    }
  });
});
