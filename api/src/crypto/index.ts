// Secrets at rest (stream keys, OAuth tokens) are sealed with the one SecretBox of @onair/runtime,
// which the media workers share to open the outputs they push to. Do not add a second cipher here.
export { SecretBox } from '@onair/runtime';
