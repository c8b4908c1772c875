/** Validates documents against the JSON Schemas shipped in schema/. */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import configSchema from '../../schema/dbprobe.schema.json';
import resultSchema from '../../schema/run-result.schema.json';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validators = { config: ajv.compile(configSchema), result: ajv.compile(resultSchema) };

/** Throws with every schema violation listed; returns when the document is valid. */
export function assertMatchesSchema(which: keyof typeof validators, document: unknown): void {
  const validate = validators[which];
  if (!validate(document)) {
    throw new Error(
      `${which} does not match its schema:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`,
    );
  }
}

/** True when the document is rejected (for negative tests). */
export function isRejected(which: keyof typeof validators, document: unknown): boolean {
  return !validators[which](document);
}
