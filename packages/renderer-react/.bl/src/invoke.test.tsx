/**
 * DSL 1.1 `invoke` through IntelligentUIView: the request the host receives, receipts, `resultMap` applied
 * only when the state is unchanged since the click (seed 002 §10), and every failure shown without changing
 * the state.
 */
import type { UIActionReceipt, UIDocumentRef } from '@lineup/shared';
import agentCallback from '@lineup/shared/fixtures/agent-callback.json' with { type: 'json' };
import fileReader from '@lineup/shared/fixtures/file-reader.json' with { type: 'json' };
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { IntelligentUIView } from './document-view.js';
import type { UIInvokeRequest } from './invoke.js';

const DOCUMENT_REF: UIDocumentRef = {
  sourceCallId: 'call-1',
  uiId: 'compact_reader',
  generation: 0,
  revision: 0,
};

function receipt(request: UIInvokeRequest, status: UIActionReceipt['status'], extra: object = {}): unknown {
  return {
    operationId: 'op-1',
    requestId: request.requestId,
    documentRef: DOCUMENT_REF,
    actionId: request.actionId,
    status,
    parameterHash: 'a'.repeat(64),
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_500,
    ...extra,
  };
}

/** A handler whose answers the test controls. */
function controlledHandler() {
  const requests: UIInvokeRequest[] = [];
  const answers: { resolve: (value: unknown) => void; reject: (error: unknown) => void }[] = [];
  const handler = vi.fn(
    (request: UIInvokeRequest) =>
      new Promise<unknown>((resolve, reject) => {
        requests.push(request);
        answers.push({ resolve, reject });
      }),
  );
  return { handler, requests, answers };
}

const lines = () => document.querySelector('.lu-result-value')!.textContent;
const actionStatus = () => document.querySelector('.lu-action-status')!.textContent;
const path = () => screen.getByLabelText('文件路径') as HTMLInputElement;
const readButton = () => screen.getByRole('button', { name: '读取' }) as HTMLButtonElement;

describe('invoke', () => {
  it('is disabled, and says why, when the host gives no handler', () => {
    render(<IntelligentUIView document={fileReader} />);
    expect(readButton().disabled).toBe(true);
    expect(screen.getByText('Actions are not available here.')).toBeTruthy();
  });

  it('hands the host a new request per click and applies resultMap from a succeeded receipt', async () => {
    const { handler, requests, answers } = controlledHandler();
    render(
      <IntelligentUIView
        document={fileReader}
        onInvoke={handler}
        documentRef={DOCUMENT_REF}
        locale="en-US"
      />,
    );
    fireEvent.change(path(), { target: { value: 'docs/protocol.md' } });
    fireEvent.click(readButton());
    expect(handler).toHaveBeenCalledTimes(1);
    const [request] = requests;
    expect(request).toMatchObject({
      actionId: 'read_info',
      values: { path: 'docs/protocol.md', lines: 0 },
      action: {
        kind: 'tool',
        actionId: 'read_info',
        capabilityId: 'read_file',
        arguments: { file_path: 'docs/protocol.md', limit: 20 },
      },
      documentRef: DOCUMENT_REF,
    });
    expect(request!.requestId).toMatch(/^r[0-9a-f]{32}$/);
    // While it runs, the button cannot submit the same click again.
    expect(readButton().disabled).toBe(true);
    expect(screen.getByText('Submitting…')).toBeTruthy();
    act(() => request!.report(receipt(request!, 'running')));
    expect(screen.getByText('Running')).toBeTruthy();
    await act(async () =>
      answers[0]!.resolve(receipt(request!, 'succeeded', { result: { totalLines: 42 } })),
    );
    expect(lines()).toBe('42');
    expect(screen.getByText('Done')).toBeTruthy();
    expect(readButton().disabled).toBe(false);

    fireEvent.click(readButton());
    expect(requests[1]!.requestId).not.toBe(request!.requestId);
    expect(requests[1]!.values).toEqual({ path: 'docs/protocol.md', lines: 42 });
  });

  it('keeps the user’s newer values and skips resultMap when the state changed after the click', async () => {
    const { handler, requests, answers } = controlledHandler();
    render(<IntelligentUIView document={fileReader} onInvoke={handler} />);
    fireEvent.click(readButton());
    fireEvent.change(path(), { target: { value: 'CHANGELOG.md' } });
    await act(async () =>
      answers[0]!.resolve(receipt(requests[0]!, 'succeeded', { result: { totalLines: 42 } })),
    );
    expect(lines()).toBe('0');
    expect(path().value).toBe('CHANGELOG.md');
    expect(screen.getByText(/the result was not applied; your values were kept/)).toBeTruthy();
  });

  it('shows a failed receipt with its message and changes nothing', async () => {
    const { handler, requests, answers } = controlledHandler();
    render(<IntelligentUIView document={fileReader} onInvoke={handler} />);
    fireEvent.click(readButton());
    await act(async () =>
      answers[0]!.resolve(receipt(requests[0]!, 'failed', { message: 'The file does not exist.' })),
    );
    expect(screen.getByText('Failed: The file does not exist.')).toBeTruthy();
    expect(lines()).toBe('0');
  });

  it.each([
    [
      'a receipt for another request',
      (request: UIInvokeRequest) => receipt(request, 'succeeded', { requestId: 'other' }),
    ],
    ['something that is not a receipt', () => ({ status: 'succeeded' })],
    [
      'a result on a non-succeeded receipt',
      (request: UIInvokeRequest) => receipt(request, 'failed', { result: { totalLines: 1 } }),
    ],
  ])('rejects %s and changes nothing', async (_, answer) => {
    const { handler, requests, answers } = controlledHandler();
    render(<IntelligentUIView document={fileReader} onInvoke={handler} />);
    fireEvent.click(readButton());
    await act(async () => answers[0]!.resolve(answer(requests[0]!)));
    expect(screen.getByText('The host answered with an invalid receipt.')).toBeTruthy();
    expect(lines()).toBe('0');
  });

  it('reports a result that does not fit the state, writing none of it', async () => {
    const { handler, requests, answers } = controlledHandler();
    render(<IntelligentUIView document={fileReader} onInvoke={handler} />);
    fireEvent.click(readButton());
    await act(async () =>
      answers[0]!.resolve(receipt(requests[0]!, 'succeeded', { result: { totalLines: -1 } })),
    );
    expect(screen.getByText(/^The result could not be applied: /)).toBeTruthy();
    expect(lines()).toBe('0');
  });

  it('reports a handler that rejects or throws', async () => {
    const { handler, answers } = controlledHandler();
    const { unmount } = render(<IntelligentUIView document={fileReader} onInvoke={handler} />);
    fireEvent.click(readButton());
    await act(async () => answers[0]!.reject(new Error('offline')));
    expect(screen.getByText('The action could not be submitted: offline')).toBeTruthy();
    expect(readButton().disabled).toBe(false);
    unmount();

    render(
      <IntelligentUIView
        document={fileReader}
        onInvoke={() => {
          throw new Error('broken host');
        }}
      />,
    );
    await act(async () => fireEvent.click(readButton()));
    expect(screen.getByText('The action could not be submitted: broken host')).toBeTruthy();
    unmount();
  });

  it('a rejection that is not an Error says only that it could not be submitted; a long message is bounded', async () => {
    const { handler, answers } = controlledHandler();
    const { unmount } = render(<IntelligentUIView document={fileReader} onInvoke={handler} />);
    fireEvent.click(readButton());
    await act(async () => answers[0]!.reject('nope'));
    expect(screen.getByText('The action could not be submitted.')).toBeTruthy();
    fireEvent.click(readButton());
    await act(async () => answers[1]!.reject(new Error('x'.repeat(5000))));
    const status = document.querySelector('.lu-action-status')!.textContent ?? '';
    expect(status.length).toBeLessThan(400);
    unmount();
  });

  it('shows the latest receipt the host kept for an action, never applies its result, and prefers a click of its own', async () => {
    const { handler, answers, requests } = controlledHandler();
    const kept = (
      status: UIActionReceipt['status'],
      createdAt: number,
      extra: object = {},
    ): UIActionReceipt =>
      ({
        operationId: `op-${createdAt}`,
        requestId: `req-${createdAt}`,
        documentRef: DOCUMENT_REF,
        actionId: 'read_info',
        status,
        parameterHash: 'b'.repeat(64),
        createdAt,
        updatedAt: createdAt + 10,
        ...extra,
      }) as UIActionReceipt;
    const older = kept('failed', 1_000, { message: 'It did not complete (popup_blocked).' });
    const newer = kept('succeeded', 2_000, { result: { totalLines: 99 } });
    const other = { ...kept('cancelled', 3_000), documentRef: { ...DOCUMENT_REF, sourceCallId: 'call-2' } };
    const { rerender } = render(
      <IntelligentUIView
        document={fileReader}
        onInvoke={handler}
        documentRef={DOCUMENT_REF}
        receipts={[newer, older, other]}
      />,
    );
    expect(actionStatus()).toBe('Last time: Done');
    // Shown, never applied: the state keeps its initial value.
    expect(lines()).toBe('0');
    // A later change of the kept receipts (an answer arriving) is shown too.
    rerender(
      <IntelligentUIView
        document={fileReader}
        onInvoke={handler}
        documentRef={DOCUMENT_REF}
        receipts={[older, newer, kept('unknown', 2_500)]}
      />,
    );
    expect(actionStatus()).toBe('Last time: Outcome unknown; it will not be retried automatically');
    fireEvent.click(readButton());
    expect(actionStatus()).toBe('Submitting…');
    await act(async () =>
      answers[0]!.resolve(receipt(requests[0]!, 'succeeded', { result: { totalLines: 7 } })),
    );
    expect(actionStatus()).toBe('Done');
    expect(lines()).toBe('7');
  });

  it('speaks Chinese when the locale is Chinese', () => {
    render(<IntelligentUIView document={fileReader} locale="zh-CN" />);
    expect(screen.getByText('此处不能执行操作。')).toBeTruthy();
  });

  it('sends an agent callback with its computed prompt and shows accepted as accepted only', async () => {
    const { handler, requests, answers } = controlledHandler();
    render(<IntelligentUIView document={agentCallback} onInvoke={handler} />);
    const draft = screen
      .getAllByRole('button')
      .find((button) => requests.length === 0 && button.textContent?.includes('起草'))!;
    fireEvent.click(draft);
    const request = requests[0]!;
    expect(request.action.kind).toBe('agent');
    expect(request.action.kind === 'agent' && request.action.prompt).toContain('组件流式更新');
    await act(async () => answers[0]!.resolve(receipt(request, 'accepted')));
    expect(screen.getByText('Sent to the agent')).toBeTruthy();
  });
});
