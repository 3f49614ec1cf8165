import { selectedInfo, type LabState, type ScenarioInfo } from '../../store/labStore';

export const selectedScenario = (state: LabState): ScenarioInfo | undefined => selectedInfo(state);
export const selectedKind = (state: LabState) => selectedScenario(state)?.kind;

/** LabError messages already start with their code; an alert shows the code once, in bold. */
export function withoutCode(code: string, message: string): string {
  return message.startsWith(`${code} `) ? message.slice(code.length + 1) : message;
}
