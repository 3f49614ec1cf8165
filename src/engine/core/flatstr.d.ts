// flatstr ships no types: it hands back the string it is given, flattened (see EventLog.keepText).
declare module 'flatstr' {
  export default function flatstr<S extends string>(s: S): S;
}
