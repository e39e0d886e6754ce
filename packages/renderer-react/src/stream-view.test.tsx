/**
 * IntelligentUIStreamView: frames of one generation update the UI in place (local values, drafts and DOM
 * stay), invoke waits for the generation to complete, a new generation starts afresh (seed 002 §12, 004 §5).
 */
import { acceptCheckpoint, advanceUIStream, startUIStream, type UIStreamState } from '@lineup/shared';
import fileReader from '@lineup/shared/fixtures/file-reader.json' with { type: 'json' };
import streamInitial from '@lineup/shared/fixtures/stream-initial.json' with { type: 'json' };
import streamMutations from '@lineup/shared/fixtures/stream-mutations.json' with { type: 'json' };
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { IntelligentUIStreamView } from './stream-view.js';

const clone = <T,>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** What a receiver holds after accepting the frame as JSON text, like a host reading it off the wire. */
const receive = (current: UIStreamState | null, producer: UIStreamState): UIStreamState =>
  acceptCheckpoint(current, JSON.parse(JSON.stringify(producer.checkpoint)));

describe('IntelligentUIStreamView', () => {
  it('renders the seed example stream frame by frame', () => {
    let producer = startUIStream(clone(streamInitial), 'call-7', 1);
    let receiver = receive(null, producer);
    const { rerender, container } = render(<IntelligentUIStreamView stream={receiver} locale="en-US" />);
    expect(screen.getByText('Computing the projection')).toBeTruthy();
    expect(screen.getByText('Generating…')).toBeTruthy();
    for (const mutation of streamMutations) {
      producer = advanceUIStream(producer, mutation);
      receiver = receive(receiver, producer);
      rerender(<IntelligentUIStreamView stream={receiver} locale="en-US" />);
    }
    receiver = receive(receiver, advanceUIStream(producer, { type: 'complete' }));
    rerender(<IntelligentUIStreamView stream={receiver} locale="en-US" />);
    expect(screen.queryByText('Computing the projection')).toBeNull();
    expect(screen.getByRole('group', { name: 'Projected balance' })).toBeTruthy();
    expect(container.querySelector('.lu-result-value')?.textContent).toBe('$16,288.95');
    expect(screen.queryByText('Generating…')).toBeNull();
  });

  it('keeps local values, the input element and focus across frames; invoke waits for complete', () => {
    const onInvoke = vi.fn(() => new Promise<unknown>(() => {}));
    let producer = startUIStream(clone(fileReader), 'call-8', 1);
    let receiver = receive(null, producer);
    const { rerender } = render(<IntelligentUIStreamView stream={receiver} onInvoke={onInvoke} />);
    const input = screen.getByLabelText('文件路径') as HTMLInputElement;
    input.focus();
    fireEvent.change(input, { target: { value: 'src/index.ts' } });
    const button = () => screen.getByRole('button', { name: '读取' }) as HTMLButtonElement;
    expect(button().disabled).toBe(true);
    expect(screen.getByText('Available once the interface has finished loading.')).toBeTruthy();

    producer = advanceUIStream(producer, {
      type: 'add',
      parentId: 'reader',
      index: 0,
      node: { id: 'hint', type: 'Text', props: { text: 'Pick a file' } },
    });
    receiver = receive(receiver, producer);
    rerender(<IntelligentUIStreamView stream={receiver} onInvoke={onInvoke} />);
    expect(screen.getByText('Pick a file')).toBeTruthy();
    expect(screen.getByLabelText('文件路径')).toBe(input);
    expect(input.value).toBe('src/index.ts');
    expect(document.activeElement).toBe(input);

    receiver = receive(receiver, advanceUIStream(producer, { type: 'complete' }));
    rerender(<IntelligentUIStreamView stream={receiver} onInvoke={onInvoke} />);
    expect(button().disabled).toBe(false);
    fireEvent.click(button());
    expect(onInvoke).toHaveBeenCalledWith(
      expect.objectContaining({
        values: { path: 'src/index.ts', lines: 0 },
        documentRef: { sourceCallId: 'call-8', uiId: 'compact_reader', generation: 1, revision: 1 },
      }),
    );
  });

  it('keeps the last valid version after cancel, with actions unavailable', () => {
    const producer = startUIStream(clone(fileReader), 'call-9', 1);
    const receiver = receive(
      receive(null, producer),
      advanceUIStream(producer, { type: 'cancel', message: 'Stopped by the user.' }),
    );
    render(<IntelligentUIStreamView stream={receiver} onInvoke={vi.fn()} />);
    expect(
      screen.getByText(/Generation was cancelled; this is the last complete version\. Stopped by the user\./),
    ).toBeTruthy();
    expect((screen.getByRole('button', { name: '读取' }) as HTMLButtonElement).disabled).toBe(true);
    expect(
      screen.getByText('This interface did not finish loading; its actions are not available.'),
    ).toBeTruthy();
  });

  it('interrupted: the last valid version stays, said so, actions unavailable; ignored once the stream ended', () => {
    const producer = startUIStream(clone(fileReader), 'call-11', 1);
    const receiver = receive(null, producer);
    const { rerender, container } = render(
      <IntelligentUIStreamView stream={receiver} onInvoke={vi.fn()} interrupted />,
    );
    expect(container.querySelector('.lu-stream-status')?.textContent).toBe(
      'Generation was interrupted; this is the last complete version.',
    );
    expect(screen.queryByText('Generating…')).toBeNull();
    expect(container.querySelector('.lu-stream')?.getAttribute('data-status')).toBe('interrupted');
    expect(container.querySelector('.lu-stream')?.getAttribute('aria-busy')).toBe('false');
    expect((screen.getByRole('button', { name: '读取' }) as HTMLButtonElement).disabled).toBe(true);
    expect(
      screen.getByText('This interface did not finish loading; its actions are not available.'),
    ).toBeTruthy();
    // A stream that completed is complete, whatever the host says about interruption.
    const completed = receive(receiver, advanceUIStream(producer, { type: 'complete' }));
    rerender(<IntelligentUIStreamView stream={completed} onInvoke={vi.fn()} interrupted />);
    expect(container.querySelector('.lu-stream-status')).toBeNull();
    expect(container.querySelector('.lu-stream')?.getAttribute('data-status')).toBe('completed');
  });

  it.each([
    ['zh-CN', '正在生成…', '生成已中断；这是最后一个完整版本。', '生成已取消；这是最后一个完整版本。'],
    [
      'en-GB',
      'Generating…',
      'Generation was interrupted; this is the last complete version.',
      'Generation was cancelled; this is the last complete version.',
    ],
  ])('says where the stream is in the view’s language (%s)', (locale, streaming, interrupted, cancelled) => {
    const producer = startUIStream(clone(fileReader), 'call-12', 1);
    const receiver = receive(null, producer);
    const { rerender, container } = render(<IntelligentUIStreamView stream={receiver} locale={locale} />);
    expect(container.querySelector('.lu-stream-status')?.textContent).toBe(streaming);
    rerender(<IntelligentUIStreamView stream={receiver} locale={locale} interrupted />);
    expect(container.querySelector('.lu-stream-status')?.textContent).toBe(interrupted);
    const ended = receive(receiver, advanceUIStream(producer, { type: 'cancel' }));
    rerender(<IntelligentUIStreamView stream={ended} locale={locale} />);
    expect(container.querySelector('.lu-stream-status')?.textContent).toBe(cancelled);
  });

  it('starts a new generation afresh', () => {
    const first = receive(null, startUIStream(clone(fileReader), 'call-10', 1));
    const { rerender } = render(<IntelligentUIStreamView stream={first} />);
    fireEvent.change(screen.getByLabelText('文件路径'), { target: { value: 'edited.md' } });
    const second = receive(first, startUIStream(clone(fileReader), 'call-10', 2));
    rerender(<IntelligentUIStreamView stream={second} />);
    expect((screen.getByLabelText('文件路径') as HTMLInputElement).value).toBe('README.md');
  });

  it('keeps the DOM of unchanged branches when a frame changes another one', () => {
    let producer = startUIStream(clone(streamInitial), 'call-11', 1);
    let receiver = receive(null, producer);
    const { rerender } = render(<IntelligentUIStreamView stream={receiver} />);
    const assumptions = screen.getByText(/10,000 at 5%/);
    producer = advanceUIStream(producer, streamMutations[1]!);
    receiver = receive(receiver, producer);
    rerender(<IntelligentUIStreamView stream={receiver} />);
    expect(screen.getByText(/10,000 at 5%/)).toBe(assumptions);
    expect(screen.getByRole('group', { name: 'Projected balance' })).toBeTruthy();
  });
});
