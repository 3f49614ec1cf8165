import { useEffect, useRef, useState, type ChangeEvent, type FocusEvent, type KeyboardEvent } from 'react';
import { formatNumber } from '../format';
import {
  SETTINGS_NOT_APPLIED,
  SETTINGS_NOT_APPLIED_V2,
  useRunStore,
  type ScenarioInfo,
  type SettingSpec,
  type SettingValue,
} from '../../store/runStore';

// The fields of SettingsPanel.tsx, loaded when the Settings section is first opened. The page does
// not judge values: what is typed goes to the engine, which answers LAB005 when it is out of range.

/** Typing "20000" must not start five runs: a number is applied once typing pauses (or on Enter, or leaving the field). */
const TYPING_PAUSE_MS = 400;

/** The settings' fields and the reset button (the part of SettingsPanel that loads when it is opened). */
export function SettingFields({ scenario }: { scenario: ScenarioInfo }) {
  const overrides = useRunStore((state) => state.spec.settings);
  const setSetting = useRunStore((state) => state.setSetting);
  const select = useRunStore((state) => state.select);
  const impl = useRunStore((state) => state.spec.impl);
  const entries = Object.entries(scenario.settingsSpec);
  const apply = (name: string, value: SettingValue) =>
    setSetting(name, value === scenario.settings[name] ? undefined : value);
  return (
    <>
      <div className="lab-settings-grid">
        {entries.map(([name, spec]) => {
          const value = name in overrides ? (overrides[name] ?? null) : (scenario.settings[name] ?? null);
          // With the real SDK some settings are the SDK's own choice; they stay, shown, for the model.
          const notApplied = impl === 'ts-sdk-v2' ? SETTINGS_NOT_APPLIED_V2 : SETTINGS_NOT_APPLIED;
          const sdkDecides = impl !== 'model' && Object.hasOwn(notApplied, name) ? notApplied[name] : undefined;
          return (
            <SettingField
              key={name}
              name={name}
              spec={spec}
              value={value}
              sdkDecides={sdkDecides}
              onValue={(next) => apply(name, next)}
            />
          );
        })}
      </div>
      <button
        type="button"
        className="lab-button"
        disabled={Object.keys(overrides).length === 0}
        onClick={() => select({ settings: {} })}
      >
        Use default settings
      </button>
    </>
  );
}

interface FieldProps {
  name: string;
  spec: SettingSpec;
  value: SettingValue;
  /** Set when the real SDK decides this setting itself: the field is disabled and says why. */
  sdkDecides?: string;
  onValue(value: SettingValue): void;
}

function SettingField({ name, spec, value, sdkDecides, onValue }: FieldProps) {
  if (sdkDecides !== undefined) {
    return (
      <div className="lab-setting">
        <label className="lab-setting-name" htmlFor={`setting-${name}`}>
          {name}
        </label>
        <input
          id={`setting-${name}`}
          type="text"
          value={value === null ? 'none' : String(value)}
          disabled
          aria-describedby={`setting-${name}-hint`}
        />
        <span className="lab-setting-hint" id={`setting-${name}-hint`}>
          Not used by the SDK: {sdkDecides}. Kept for the model.
        </span>
      </div>
    );
  }
  const inputId = `setting-${name}`;
  const hintId = `setting-${name}-hint`;
  // The name alone labels the input (what a test or a screen reader asks for); the hint describes it.
  const label = (
    <label className="lab-setting-name" htmlFor={inputId}>
      {name}
    </label>
  );
  const hint = (
    <span className="lab-setting-hint" id={hintId}>
      {spec.description}
      {spec.kind === 'integer'
        ? ` ${formatNumber(spec.min)} to ${formatNumber(spec.max)}${spec.unit === undefined ? '' : ` ${spec.unit}`}${spec.nullable ? '; empty: none' : ''}.`
        : ''}
    </span>
  );
  switch (spec.kind) {
    case 'boolean':
      return (
        <div className="lab-setting lab-setting-check">
          <input
            id={inputId}
            type="checkbox"
            checked={value === true}
            aria-describedby={hintId}
            onChange={(event) => onValue(event.target.checked)}
          />
          {label}
          {hint}
        </div>
      );
    case 'enum':
      return (
        <div className="lab-setting">
          {label}
          <select
            id={inputId}
            value={String(value)}
            aria-describedby={hintId}
            onChange={(event) => onValue(event.target.value)}
          >
            {spec.values.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          {hint}
        </div>
      );
    case 'integer':
      return (
        <div className="lab-setting">
          {label}
          <IntegerInput
            id={inputId}
            nullable={spec.nullable === true}
            min={spec.min}
            max={spec.max}
            value={value}
            hintId={hintId}
            onValue={onValue}
          />
          {hint}
        </div>
      );
  }
}

/** What typed text means: a number, "none" (null) where allowed, or the text itself for the engine to refuse. */
function parse(text: string, nullable: boolean): SettingValue | undefined {
  const trimmed = text.trim();
  if (nullable && (trimmed === '' || trimmed === 'none')) return null;
  if (trimmed === '' || trimmed === '-') return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : trimmed;
}

interface IntegerInputProps {
  id: string;
  nullable: boolean;
  min: number;
  max: number;
  value: SettingValue;
  hintId: string;
  onValue(value: SettingValue): void;
}

function IntegerInput({ id, nullable, min, max, value, hintId, onValue }: IntegerInputProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const commit = (text: string) => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    const parsed = parse(text, nullable);
    if (parsed !== undefined && parsed !== value) onValue(parsed);
  };
  const onChange = (text: string) => {
    setDraft(text);
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(text), TYPING_PAUSE_MS);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') commit(event.currentTarget.value);
  };
  const shown = draft ?? (value === null ? '' : String(value));
  // The same field either way; only a nullable one is text (empty means "none"), the other a number with its range.
  const field = {
    id,
    inputMode: 'numeric' as const,
    value: shown,
    'aria-describedby': hintId,
    onChange: (event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value),
    onKeyDown,
    onBlur: (event: FocusEvent<HTMLInputElement>) => {
      commit(event.target.value);
      setDraft(null);
    },
  };
  return nullable ? (
    <input type="text" placeholder="none" {...field} />
  ) : (
    <input type="number" min={min} max={max} step={1} {...field} />
  );
}
