-- Where an item made from speech came from: the voice session, the unit id, the
-- transcript excerpt, its span and the anchors that resolved. One JSON object, ''
-- for typed items (and for every item saved before this column existed).
ALTER TABLE items ADD COLUMN voice_json TEXT NOT NULL DEFAULT '';
