CREATE TABLE "seen_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"device_hash" text NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"last_ip" text,
	"sign_ins" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "action_tokens" ADD COLUMN "seen_device_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_change_frozen_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "seen_devices" ADD CONSTRAINT "seen_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "seen_devices_user_device_key" ON "seen_devices" USING btree ("user_id","device_hash");--> statement-breakpoint
ALTER TABLE "action_tokens" ADD CONSTRAINT "action_tokens_seen_device_id_seen_devices_id_fk" FOREIGN KEY ("seen_device_id") REFERENCES "public"."seen_devices"("id") ON DELETE set null ON UPDATE no action;