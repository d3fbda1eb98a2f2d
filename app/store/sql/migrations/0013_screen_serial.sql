-- The serial of the phone a screen was frozen on, so an item saved on one of
-- several phones shown side by side names the phone it came from. NULL for
-- screens saved before this column existed and for screens of no known phone.
ALTER TABLE screens ADD COLUMN serial TEXT;
