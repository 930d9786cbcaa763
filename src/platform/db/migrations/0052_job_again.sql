-- A singleton job asked for again while it runs (a schedule slot, a wake-up for chargers) runs once more after it
-- instead of being dropped: whatever became due while it ran would otherwise wait for the next slot.
ALTER TABLE jobs ADD COLUMN again boolean NOT NULL DEFAULT false;
