/** ui.open / patch / close semantics of seed 000 §4 over mounted frames (jsdom). */
// Frames of instances only: a spare frame the pool loads ahead (where jsdom can move frames) is not one.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SurfaceInstances } from './instances.js';

const APP = {
  id: 'com.lineup.weather.dashboard',
  name: '天气面板',
  version: '1.0.0',
  html: '<main></main>',
  css: '',
  js: '',
};
const open = (instance_id: string) => ({ instance_id, app: APP, state: {} });

// The test files of a worker share one jsdom document (`isolate: false`), and another file's frames may still arrive
// in it: each test mounts into, and counts in, a container of its own.
let root: HTMLElement;

beforeEach(() => {
  root = document.createElement('div');
  document.body.append(root);
});

afterEach(() => {
  root.remove();
});

describe('SurfaceInstances', () => {
  it('replaces an instance opened again with the same id', () => {
    const instances = new SurfaceInstances({ onEvent: vi.fn() });
    const first = instances.open(root, open('w.1'));
    const second = instances.open(root, open('w.1'));
    expect(first.closed).toBe(true);
    expect(instances.get('w.1')).toBe(second);
    expect(root.querySelectorAll('iframe[data-instance-id]')).toHaveLength(1);
    instances.open(root, open('w.2'));
    expect(root.querySelectorAll('iframe[data-instance-id]')).toHaveLength(2);
    instances.closeAll();
    expect(root.querySelectorAll('iframe[data-instance-id]')).toHaveLength(0);
  });

  it('patches and closes known instances only; an agent close sends no event', () => {
    const onEvent = vi.fn();
    const instances = new SurfaceInstances({ onEvent });
    expect(instances.patch({ instance_id: 'nope', state: {} })).toBe('unknown_instance');
    expect(instances.close({ instance_id: 'nope', reason: 'completed' })).toBe('unknown_instance');
    const handle = instances.open(root, open('w.1'));
    const patch = vi.spyOn(handle, 'patch');
    expect(instances.patch({ instance_id: 'w.1', state: { city: '上海' } })).toBe('applied');
    expect(patch).toHaveBeenCalledWith({ city: '上海' });
    expect(instances.close({ instance_id: 'w.1', reason: 'completed' })).toBe('applied');
    expect(handle.closed).toBe(true);
    expect(instances.get('w.1')).toBeUndefined();
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('reports a user close to the agent as ui.event close', () => {
    const onEvent = vi.fn();
    const instances = new SurfaceInstances({ onEvent });
    instances.open(root, open('w.1'));
    expect(instances.userClose('w.1')).toBe('applied');
    expect(onEvent).toHaveBeenCalledWith({ instance_id: 'w.1', event: 'close', data: {} });
    expect(instances.userClose('w.1')).toBe('unknown_instance');
  });
});
