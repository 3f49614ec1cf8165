/** What the page names about the TypeScript SDK implementation (src/sdk/version.ts), apart from protocol.ts so the page gets it without the protocol's checks (issue #9: those load beside the workers). */
export { SETTINGS_NOT_APPLIED, TS_SDK_PACKAGE, TS_SDK_PROTOCOL_VERSION, TS_SDK_VERSION } from '../sdk/version';
