// Proves the store's Implementation choice against the real worker host in-process: ts-sdk runs the real SDK and keeps it across request races, falls back to the model elsewhere, and the settings the SDK decides itself stay the user's for the model without being sent with ts-sdk.
import { describe, expect, it } from 'vitest';
import { createLabClient } from '../worker/client';
import { createInProcessWorker } from '../worker/inProcessWorker';
import { memoryLedgerStorage } from '../worker/ledgerStorage';
import { whenSettled } from './driver';
import { createRunStore } from './runStore';

function store() {
  const worker = createInProcessWorker({ storage: memoryLedgerStorage() });
  return createRunStore(() => createLabClient(() => worker));
}

describe('the Implementation choice', () => {
  it('runs the real SDK, keeps it across A–D, and runs the model for any other scenario', async () => {
    const lab = store();
    await lab.getState().init();
    lab.getState().select({ impl: 'ts-sdk' });
    await whenSettled(lab);
    expect(lab.getState().transcript).toMatchObject({ scenario: 'A', implementation: 'ts-sdk' });
    lab.getState().selectScenario('C');
    await whenSettled(lab);
    expect(lab.getState()).toMatchObject({
      spec: { impl: 'ts-sdk' },
      transcript: { scenario: 'C', implementation: 'ts-sdk' },
    });
    lab.getState().selectScenario('buffer-overload');
    await whenSettled(lab);
    expect(lab.getState().spec.impl).toBe('model');
    expect(lab.getState().transcript?.implementation).toBeUndefined();
  });

  it('keeps a setting the SDK decides for the model, and runs ts-sdk without it', async () => {
    const lab = store();
    await lab.getState().init();
    lab.getState().selectScenario('D');
    await whenSettled(lab);
    lab.getState().setSetting('httpCancel', 'post-notification');
    await whenSettled(lab);
    lab.getState().select({ impl: 'ts-sdk' });
    await whenSettled(lab);
    expect(lab.getState().error).toBeNull();
    expect(lab.getState().spec.settings).toEqual({ httpCancel: 'post-notification' });
    expect(lab.getState().transcript).toMatchObject({
      implementation: 'ts-sdk',
      settings: { httpCancel: 'close-stream' },
    });
    lab.getState().select({ impl: 'model' });
    await whenSettled(lab);
    expect(lab.getState().transcript?.settings.httpCancel).toBe('post-notification');
  });
});
