import { UpgradeNote } from '../account-settings/UpgradeNote.tsx';

/** The id the Add Destination button is described by at the limit. */
export const DESTINATION_LIMIT_NOTE_ID = 'destination-limit-reason';
/** The id the Record switch is described by without the `recording` entitlement. */
export const RECORD_NOTE_ID = 'record-not-in-plan';

/** At the plan's `maximum-destinations`: why Add Destination is off (issue 52). */
export function DestinationLimitNote({ maximum }: { maximum: number | null | undefined }) {
  const count = maximum ?? 0;
  return (
    <UpgradeNote id={DESTINATION_LIMIT_NOTE_ID}>
      {`Your plan streams to ${count} ${count === 1 ? 'destination' : 'destinations'} at once. Premium has no limit.`}
    </UpgradeNote>
  );
}

/** Without the `recording` entitlement: why the Record switch is off. */
export function RecordNotInPlanNote() {
  return <UpgradeNote id={RECORD_NOTE_ID}>Recording is not in your plan: Premium records each broadcast and keeps it 30 days.</UpgradeNote>;
}
