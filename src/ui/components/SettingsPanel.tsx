import { lazy } from 'react';
import { PartBoundary } from './PartBoundary';
import { usePanelsStore } from '../../store/panels';
import { useRunStore, type ScenarioInfo } from '../../store/runStore';

const SettingFields = lazy(() => import('./SettingFields').then((module) => ({ default: module.SettingFields })));

/**
 * The scenario's settings, one input each, built from the spec the worker listed. The page does
 * not judge values: what is typed goes to the engine, which answers LAB005 (shown in the alert,
 * naming the setting and its range) when it is out of range.
 */

export function SettingsPanel({ scenario }: { scenario: ScenarioInfo }) {
  const overrides = useRunStore((state) => state.spec.settings);
  const changed = Object.keys(overrides).filter((name) => overrides[name] !== scenario.settings[name]).length;

  // Open or closed survives the panel moving (the side column, or the page when a run failed).
  const open = usePanelsStore((state) => state.settingsOpen);
  const setOpen = usePanelsStore((state) => state.setSettingsOpen);

  return (
    <details
      className="lab-settings"
      key={scenario.id}
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>
        Settings <span className="lab-count">({changed === 0 ? 'defaults' : `${changed} changed`})</span>
      </summary>
      {/* The fields load when the section is first opened (so the first load carries less script). */}
      {open && (
        <PartBoundary name="the settings">
          <SettingFields scenario={scenario} />
        </PartBoundary>
      )}
    </details>
  );
}
