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
const path = () => screen.getByLabelText('文件路径') as HTMLInputElement;
const readButton = () => screen.getByRole('button', { name: '读取' }) as HTMLButtonElement;

describe('invoke', () => {
  it('is disabled, and says why, when the host gives no handler', () => {
    render(<IntelligentUIView document={fileReader} />);
    expect(readButton().disabled).toBe(true);
    expect(screen.getByText('This host does not run actions.')).toBeTruthy();
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
    expect(screen.getByText('The action could not be submitted.')).toBeTruthy();
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
    expect(screen.getByText('The action could not be submitted.')).toBeTruthy();
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
