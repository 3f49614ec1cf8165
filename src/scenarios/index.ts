import { LabError } from '../engine';
import { runScenario, type RunOptions, type Scenario } from '../engine';
import type { Transcript } from '../engine';
import { scenarioA } from './A';
import { scenarioB } from './B';
import { scenarioC } from './C';
import { scenarioD } from './D';
import { cancelIgnored } from './cancel-ignored';
import { listenServerCancel } from './listen-server-cancel';
import { ledgerNewIdRetry } from './ledger-new-id-retry';
import { ledgerKeyedRetry } from './ledger-keyed-retry';
import { ledgerKeyMismatch } from './ledger-key-mismatch';
import { ledgerRaceKeyed } from './ledger-race-keyed';
import { ledgerRaceUnsafe } from './ledger-race-unsafe';
import { ledgerReopen } from './ledger-reopen';
import { ledgerAlias } from './ledger-alias';
import { inventoryKeyBinding } from './inventory-key-binding';
import { inventoryRetry } from './inventory-retry';
import { inventoryChangedQuantity } from './inventory-changed-quantity';
import { inventoryReconcile } from './inventory-reconcile';
import { inventoryNoKey } from './inventory-no-key';
import { inventorySubscriptionDrop } from './inventory-subscription-drop';
import { inventoryRace } from './inventory-race';
import { inventoryAlias } from './inventory-alias';
import { inventoryReopenReconcile } from './inventory-reopen-reconcile';
import { taskCancelAck } from './task-cancel-ack';
import { taskCancelTooLate } from './task-cancel-too-late';
import { taskHttpClose } from './task-http-close';
import { bufferOverload } from './buffer-overload';
import { proxyBuffering } from './proxy-buffering';
import { reconnectListen } from './reconnect-listen';
import { herd } from './herd';

/** Every scenario, in the order the picker and `lab list` show them. */
export const scenarios: readonly Scenario[] = [
  scenarioA,
  scenarioB,
  scenarioC,
  scenarioD,
  cancelIgnored,
  listenServerCancel,
  ledgerNewIdRetry,
  ledgerKeyedRetry,
  ledgerKeyMismatch,
  ledgerRaceKeyed,
  ledgerRaceUnsafe,
  ledgerReopen,
  ledgerAlias,
  inventoryKeyBinding,
  inventoryRetry,
  inventoryChangedQuantity,
  inventoryReconcile,
  inventoryNoKey,
  inventorySubscriptionDrop,
  inventoryRace,
  inventoryAlias,
  inventoryReopenReconcile,
  taskCancelAck,
  taskCancelTooLate,
  taskHttpClose,
  bufferOverload,
  proxyBuffering,
  reconnectListen,
  herd,
];

export function findScenario(id: string): Scenario {
  const scenario = scenarios.find((candidate) => candidate.id === id);
  if (scenario === undefined)
    throw new LabError('LAB001', `"${id}" is not a scenario; known: ${scenarios.map((s) => s.id).join(', ')}`);
  return scenario;
}

export function runScenarioById(id: string, options: RunOptions = {}): Transcript {
  return runScenario(findScenario(id), options);
}

/** Runs a request-race scenario (A–D) by id, typed with its outcome. */
export function runRaceById(id: string, options: RunOptions = {}): Transcript<'request-race'> {
  const scenario = findScenario(id);
  if (scenario.kind !== 'request-race')
    throw new LabError('LAB001', `"${id}" is a ${scenario.kind} scenario, not a request race`);
  return runScenario(scenario, options);
}
