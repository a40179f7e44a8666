/** Small helpers of the Settings tabs' fields (app/admin/settings.tsx). */

/**
 * A number field's value for the API: the number when the text reads as one, else the text as typed, so the API
 * (the settings' one schema) is the judge and its refusal is shown at the field.
 */
export const numberOrTyped = (text: string): number => (text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : (text as unknown as number));
