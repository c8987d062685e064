CREATE TABLE "licence_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" uuid NOT NULL,
	"from_user_id" uuid NOT NULL,
	"to_email" text NOT NULL,
	"to_user_id" uuid,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "licence_transfers_state" CHECK ("licence_transfers"."state" in ('pending', 'accepted', 'cancelled', 'expired'))
);
--> statement-breakpoint
ALTER TABLE "licence_transfers" ADD CONSTRAINT "licence_transfers_key_id_license_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."license_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_transfers" ADD CONSTRAINT "licence_transfers_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_transfers" ADD CONSTRAINT "licence_transfers_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "licence_transfers_token_key" ON "licence_transfers" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "licence_transfers_pending_key" ON "licence_transfers" USING btree ("key_id") WHERE "licence_transfers"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "licence_transfers_key_idx" ON "licence_transfers" USING btree ("key_id","resolved_at");--> statement-breakpoint
CREATE INDEX "licence_transfers_from_idx" ON "licence_transfers" USING btree ("from_user_id");--> statement-breakpoint
CREATE INDEX "licence_transfers_to_idx" ON "licence_transfers" USING btree ("to_user_id");