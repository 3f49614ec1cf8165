/** What the page names about the TypeScript SDK implementation (src/sdk/version.ts), apart from protocol.ts so the page gets it without the protocol's checks (those load beside the workers). */
export {
  SETTINGS_NOT_APPLIED,
  SETTINGS_NOT_APPLIED_V2,
  TS_SDK_PACKAGE,
  TS_SDK_PROTOCOL_VERSION,
  TS_SDK_VERSION,
  TS_SDK_V2_VERSION,
  TS_SDK_V2_PROTOCOL_VERSION,
  V2_SCHEMA_FINDINGS,
} from '../sdk/version';
