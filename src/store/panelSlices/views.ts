import type {
  BufferView,
  HerdView,
  ProxyView,
  ReconnectView,
  Settings,
  TasksView,
  Transport,
} from '../../worker/protocol';
import type { ToolCall } from '../../worker/toolsClient';
import {
  coalesce,
  message,
  SLIDER_DEBOUNCE_MS,
  valueOf,
  VIEW_DEFAULTS,
  type BufferSlice,
  type HerdSlice,
  type PanelSlice,
  type PanelSliceDeps,
  type Load,
  type ProxySlice,
  type TasksSlice,
} from './state';

/**
 * The panels whose view is one or two runs of a scenario (Buffer, Backoff, Tasks, Proxy & reconnect):
 * each control sets its value at once and asks the worker for the view, debounced and latest-wins.
 * The view opens when its tab does (deps.opens).
 */

const panel = (deps: PanelSliceDeps, scenario: string, settings: Settings, transport: Transport = 'http') =>
  deps.client.call({ type: 'panel', scenario, transport, seed: 1, settings } satisfies ToolCall);

/** Where a view is kept in the state. */
interface ViewSlot<T> {
  read(): Load<T>;
  write(load: Load<T>): void;
}

/**
 * The runner of one view, debounced and latest-wins: it marks the view loading (the last one stays on
 * screen), asks `compute`, and shows its answer or its error. `open` runs it once, when the tab opens.
 */
function viewRunner<T>(slot: ViewSlot<T>, compute: () => Promise<T>, delayMs: number) {
  const run = coalesce(async () => {
    slot.write({ status: 'loading', value: valueOf(slot.read()) });
    try {
      slot.write({ status: 'done', value: await compute() });
    } catch (error) {
      slot.write({ status: 'error', message: message(error), value: valueOf(slot.read()) });
    }
  }, delayMs);
  const open = () => {
    if (slot.read().status === 'idle') run();
  };
  return { run, open };
}

export const createBufferSlice: PanelSlice<BufferSlice> = (deps) => (set, get) => {
  const compute = async () => (await panel(deps, 'buffer-overload', { capacity: get().capacity })).view as BufferView;
  const { run, open } = viewRunner(
    { read: () => get().buffer, write: (buffer) => set({ buffer }) },
    compute,
    SLIDER_DEBOUNCE_MS,
  );
  deps.opens.buffer = open;
  return {
    capacity: VIEW_DEFAULTS.capacity,
    buffer: { status: 'idle' },
    setCapacity(capacity) {
      set({ capacity });
      run();
    },
  };
};

export const createHerdSlice: PanelSlice<HerdSlice> = (deps) => (set, get) => {
  const compute = async () => {
    const { baseMs, capMs, clients, policy, comparePolicy } = get().herdInputs;
    const settings = { baseMs, capMs: Math.max(capMs, baseMs), clients };
    const [main, compare] = await Promise.all([
      panel(deps, 'herd', { ...settings, policy }),
      comparePolicy === null ? null : panel(deps, 'herd', { ...settings, policy: comparePolicy }),
    ]);
    return { main: main.view as HerdView, compare: compare === null ? null : (compare.view as HerdView) };
  };
  const { run, open } = viewRunner(
    { read: () => get().herd, write: (herd) => set({ herd }) },
    compute,
    SLIDER_DEBOUNCE_MS,
  );
  deps.opens.backoff = open;
  return {
    herdInputs: { ...VIEW_DEFAULTS.herdInputs },
    herd: { status: 'idle' },
    setHerd(inputs) {
      set({ herdInputs: { ...get().herdInputs, ...inputs } });
      run();
    },
  };
};

export const createTasksSlice: PanelSlice<TasksSlice> = (deps) => (set, get) => {
  const compute = async () => (await panel(deps, get().taskScenario, {})).view as TasksView;
  const { run, open } = viewRunner({ read: () => get().tasks, write: (tasks) => set({ tasks }) }, compute, 0);
  deps.opens.tasks = open;
  return {
    taskScenario: 'task-cancel-ack',
    tasks: { status: 'idle' },
    setTaskScenario(taskScenario) {
      set({ taskScenario });
      run();
    },
  };
};

export const createProxySlice: PanelSlice<ProxySlice> = (deps) => (set, get) => {
  const compute = async () => {
    const [proxy, reconnect] = await Promise.all([
      panel(deps, 'proxy-buffering', { honourNoBuffering: get().honourNoBuffering }),
      panel(deps, 'reconnect-listen', {}),
    ]);
    return { proxy: proxy.view as ProxyView, reconnect: reconnect.view as ReconnectView };
  };
  const { run, open } = viewRunner({ read: () => get().proxy, write: (proxy) => set({ proxy }) }, compute, 0);
  deps.opens.proxy = open;
  return {
    honourNoBuffering: false,
    proxy: { status: 'idle' },
    setHonourNoBuffering(honourNoBuffering) {
      set({ honourNoBuffering });
      run();
    },
  };
};
