/**
 * Where each requirement id the lab prints is defined: the catalogue docs/requirements.md in the
 * repository (what the CLI names), which the build also serves beside the page as requirements.html
 * (what the Verification tab links). Each id is a heading there, its anchor the id in lower case.
 */
export const REQUIREMENTS_DOC = 'docs/requirements.md';
export const REQUIREMENTS_PAGE = 'requirements.html';

/** The heading anchor of one id: `VF-1` → `vf-1`. */
export function requirementAnchor(id: string): string {
  return id.toLowerCase();
}

/** The link the page gives an id (relative to the page). */
export function requirementPageLink(id: string): string {
  return `${REQUIREMENTS_PAGE}#${requirementAnchor(id)}`;
}

/** The link the CLI prints for an id (relative to the repository). */
export function requirementDocLink(id: string): string {
  return `${REQUIREMENTS_DOC}#${requirementAnchor(id)}`;
}
