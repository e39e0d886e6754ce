/** The README's examples: shown verbatim, and run here to prove they do what their comments say. */
import { advanceUIStream, startUIStream, type UIActionReserveRequest } from '@lineup/shared';
import streamInitial from '@lineup/shared/fixtures/stream-initial.json' with { type: 'json' };
import streamMutations from '@lineup/shared/fixtures/stream-mutations.json' with { type: 'json' };
import { act, fireEvent, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import invokeSource from '../examples/invoke.tsx?raw';
import prepareSource from '../examples/prepare.tsx?raw';
import renderSource from '../examples/render-document.tsx?raw';
import streamSource from '../examples/stream.tsx?raw';
import themeSource from '../examples/theme.tsx?raw';
import readme from '../README.md?raw';
import { countNumberFormats } from '../test/number-formats.js';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

function container(): HTMLElement {
  return document.body.appendChild(document.createElement('div'));
}

describe('README examples', () => {
  it.each([
    ['render-document', renderSource],
    ['invoke', invokeSource],
    ['stream', streamSource],
    ['theme', themeSource],
    ['prepare', prepareSource],
  ])('the README shows examples/%s.tsx verbatim', (_name, source) => {
    expect(readme).toContain(source.trimEnd());
  });

  it('prepare makes the number format of the locale when the page is idle, and nothing before; it resolves when done', async () => {
    const { made, restore } = countNumberFormats();
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    try {
      const { prepareWhenIdle } = await import('../examples/prepare.js');
      const prepared = prepareWhenIdle('fr-FR');
      expect(made).toEqual([]);
      for (const callback of idle) callback();
      expect(made).toEqual(['fr-FR']);
      await expect(prepared).resolves.toBeUndefined();
    } finally {
      restore();
      vi.unstubAllGlobals();
    }
  });

  it('render-document renders the calculator and reports state changes', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { showCalculator } = await import('../examples/render-document.js');
    act(() => {
      root = showCalculator(container());
    });
    expect(screen.getByRole('region', { name: '本地复利计算器' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('本金（元）'), { target: { value: '20000' } });
    expect(log).toHaveBeenLastCalledWith(20000);
    expect(document.querySelector('.lu-result-value')?.textContent).toContain('32,577.89');
  });

  it('theme puts the title under the host heading, pins the theme and the language', async () => {
    const { showInSection } = await import('../examples/theme.js');
    act(() => {
      root = showInSection(container(), 'dark');
    });
    const ui = screen.getByRole('region', { name: '三款轻薄笔记本对比' });
    expect(screen.getByRole('heading', { name: '三款轻薄笔记本对比', level: 3 })).toBeTruthy();
    expect(ui.querySelector('h2')).toBeNull();
    expect(ui.getAttribute('data-lu-theme')).toBe('dark');
    expect(ui.getAttribute('lang')).toBe('zh-CN');
  });

  it('invoke hands the runtime a reserve request and applies the succeeded result', async () => {
    const { showReader } = await import('../examples/invoke.js');
    const requests: UIActionReserveRequest[] = [];
    const runtime = {
      reserve: async (request: UIActionReserveRequest) => {
        requests.push(request);
        return {
          operationId: 'op-1',
          requestId: request.requestId,
          documentRef: request.documentRef,
          actionId: request.actionId,
          status: 'succeeded',
          parameterHash: '0'.repeat(64),
          createdAt: 1,
          updatedAt: 2,
          result: { totalLines: 128 },
        };
      },
    };
    act(() => {
      root = showReader(container(), runtime);
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '读取' })));
    expect(requests).toEqual([
      {
        documentRef: { sourceCallId: 'call-42', uiId: 'compact_reader', generation: 0, revision: 0 },
        requestId: expect.stringMatching(/^r[0-9a-f]{32}$/),
        actionId: 'read_info',
        values: { path: 'README.md', lines: 0 },
      },
    ]);
    expect(document.querySelector('.lu-result-value')?.textContent).toBe('128');
  });

  it('stream renders frames in place and logs where a rejected frame is wrong', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { showStream } = await import('../examples/stream.js');
    let receive: (text: string) => void = () => {};
    act(() => {
      receive = showStream(container());
    });
    let producer = startUIStream(streamInitial, 'call-1', 1);
    act(() => receive(JSON.stringify(producer.checkpoint)));
    expect(screen.getByText('Computing the projection')).toBeTruthy();
    for (const mutation of streamMutations) {
      producer = advanceUIStream(producer, mutation);
      act(() => receive(JSON.stringify(producer.checkpoint)));
    }
    expect(screen.getByRole('group', { name: 'Projected balance' })).toBeTruthy();
    act(() => receive(JSON.stringify({ ...producer.checkpoint, uiId: 'other_ui' })));
    expect(log).toHaveBeenCalledWith('uiId');
    expect(screen.getByRole('group', { name: 'Projected balance' })).toBeTruthy();
  });
});
