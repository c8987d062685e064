CREATE INDEX "devices_name_search_idx" ON "devices" USING btree (lower("name"),"user_id");--> statement-breakpoint
CREATE INDEX "devices_machine_search_idx" ON "devices" USING btree ("machine_id","user_id");--> statement-breakpoint
CREATE INDEX "license_keys_ending_idx" ON "license_keys" USING btree (right("key", 6),"user_id") WHERE "license_keys"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "users_email_prefix_idx" ON "users" USING btree ("email" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "storefront_orders_name_idx" ON "storefront_orders" USING btree ("name");