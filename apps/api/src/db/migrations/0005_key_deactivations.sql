CREATE TABLE "key_deactivations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"deactivated_at" timestamp with time zone NOT NULL,
	"cause" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "key_deactivations" ADD CONSTRAINT "key_deactivations_key_id_license_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."license_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "key_deactivations_key_device_key" ON "key_deactivations" USING btree ("key_id","device_id");--> statement-breakpoint
CREATE INDEX "key_deactivations_key_idx" ON "key_deactivations" USING btree ("key_id","deactivated_at");--> statement-breakpoint
-- The history so far (ADR 0030): every counted deactivation is charged to the keys that the
-- customer holds of the licence's product now, so no used allowance is lost with the move.
INSERT INTO "key_deactivations" ("key_id", "device_id", "deactivated_at", "cause")
SELECT k."id", d."id", d."deactivated_at", d."deactivation_cause"
FROM "devices" d
JOIN "licences" l ON l."id" = d."licence_id"
JOIN "license_keys" k ON k."user_id" = l."user_id" AND k."product_code" = l."product_code"
WHERE d."deactivated_at" IS NOT NULL AND d."deactivation_cause" IN ('customer', 'app')
ON CONFLICT DO NOTHING;
