package provider

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func filterTestSnapshots(base time.Time) []platform.Snapshot {
	return []platform.Snapshot{
		{ID: "s1", Name: "nightly-1", SandboxID: "box-a", CreatedAt: base.Add(1 * time.Hour), Labels: map[string]string{"team": "ml", "env": "dev"}},
		{ID: "s2", Name: "nightly-2", SandboxID: "box-a", CreatedAt: base.Add(2 * time.Hour), Labels: map[string]string{"team": "ml"}},
		{ID: "s3", Name: "weekly-1", VolumeID: "vol-1", CreatedAt: base.Add(3 * time.Hour), Labels: map[string]string{"team": "web"}},
		// expired one hour after base
		{ID: "s4", Name: "nightly-0", SandboxID: "box-b", CreatedAt: base, ExpiresAt: base.Add(time.Hour), Labels: map[string]string{"team": "ml"}},
		// same creation time as s2: the id decides the order
		{ID: "s0", Name: "nightly-2b", SandboxID: "box-b", CreatedAt: base.Add(2 * time.Hour)},
	}
}

func filterTestIDs(s []platform.Snapshot) string {
	ids := make([]string, len(s))
	for i, x := range s {
		ids[i] = x.ID
	}
	return strings.Join(ids, ",")
}

func TestSelectSnapshots(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := base.Add(5 * time.Hour) // s4 has expired by then
	cases := []struct {
		name string
		q    snapshotQuery
		at   time.Time
		want string
	}{
		{"no filters: all unexpired, newest first, id breaks ties", snapshotQuery{}, at, "s3,s0,s2,s1"},
		{"include_expired keeps the expired one", snapshotQuery{IncludeExpired: true}, at, "s3,s0,s2,s1,s4"},
		{"before its deadline a snapshot is not expired", snapshotQuery{}, base.Add(30 * time.Minute), "s3,s0,s2,s1,s4"},
		{"exactly at the deadline it is expired", snapshotQuery{}, base.Add(time.Hour), "s3,s0,s2,s1"},
		{"name is exact", snapshotQuery{Name: "nightly-2"}, at, "s2"},
		{"name_regex", snapshotQuery{NameRegex: regexp.MustCompile(`^nightly-\d$`)}, at, "s2,s1"},
		{"labels: all must match", snapshotQuery{Labels: map[string]string{"team": "ml", "env": "dev"}}, at, "s1"},
		{"labels: one key", snapshotQuery{Labels: map[string]string{"team": "ml"}}, at, "s2,s1"},
		{"labels: value differs", snapshotQuery{Labels: map[string]string{"team": "ops"}}, at, ""},
		{"sandbox_id", snapshotQuery{SandboxID: "box-a"}, at, "s2,s1"},
		{"volume_id", snapshotQuery{VolumeID: "vol-1"}, at, "s3"},
		{"filters combine", snapshotQuery{SandboxID: "box-b", IncludeExpired: true, Labels: map[string]string{"team": "ml"}}, at, "s4"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := filterTestSnapshots(base)
			got := filterTestIDs(selectSnapshots(in, tc.q, tc.at))
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if filterTestIDs(in) != "s1,s2,s3,s4,s0" {
				t.Fatalf("input was reordered: %s", filterTestIDs(in))
			}
		})
	}
}

func TestSortSnapshotsNewestFirstIsIndependentOfInputOrder(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	a := []platform.Snapshot{{ID: "b", CreatedAt: base}, {ID: "a", CreatedAt: base}, {ID: "c", CreatedAt: base.Add(time.Second)}}
	b := []platform.Snapshot{a[2], a[1], a[0]}
	sortSnapshotsNewestFirst(a)
	sortSnapshotsNewestFirst(b)
	if filterTestIDs(a) != "c,a,b" || filterTestIDs(b) != "c,a,b" {
		t.Fatalf("got %s and %s, want c,a,b for both", filterTestIDs(a), filterTestIDs(b))
	}
}

func TestPickSnapshot(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	two := []platform.Snapshot{{ID: "new", CreatedAt: base.Add(time.Hour)}, {ID: "old", CreatedAt: base}}
	var seven []platform.Snapshot
	for i := range 7 {
		seven = append(seven, platform.Snapshot{ID: string(rune('a' + i))})
	}
	q := snapshotQuery{Name: "x", Labels: map[string]string{"b": "2", "a": "1"}}
	cases := []struct {
		name       string
		matches    []platform.Snapshot
		mostRecent bool
		wantID     string
		wantErr    []string
	}{
		{name: "none", matches: nil, wantErr: []string{"no snapshot matched", `name = "x"`, `labels = { "a" = "1", "b" = "2" }`, "include_expired = false"}},
		{name: "none even with most_recent", matches: nil, mostRecent: true, wantErr: []string{"no snapshot matched"}},
		{name: "one", matches: two[:1], wantID: "new"},
		{name: "several without most_recent", matches: two, wantErr: []string{"2 snapshots matched", "most_recent = true", "new, old"}},
		{name: "several with most_recent takes the first (newest)", matches: two, mostRecent: true, wantID: "new"},
		{name: "many ids are cut short", matches: seven, wantErr: []string{"7 snapshots matched", "a, b, c, d, e, and 2 more"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pickSnapshot(tc.matches, tc.mostRecent, q)
			if len(tc.wantErr) > 0 {
				if err == nil {
					t.Fatalf("want an error, got %q", got.ID)
				}
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != tc.wantID {
				t.Fatalf("got %q, want %q", got.ID, tc.wantID)
			}
		})
	}
}

func TestSnapshotQueryPlatformFilter(t *testing.T) {
	q := snapshotQuery{Name: "n", NameRegex: regexp.MustCompile("x"), Labels: map[string]string{"k": "v"}, SandboxID: "s", VolumeID: "v"}
	f := q.platformFilter()
	if f.Name != "n" || f.SandboxID != "s" || f.VolumeID != "v" || f.Labels["k"] != "v" {
		t.Fatalf("unexpected filter %+v", f)
	}
	f.Labels["k"] = "changed"
	if q.Labels["k"] != "v" {
		t.Fatal("the platform filter shares its labels map with the query")
	}
}

func TestPickByName(t *testing.T) {
	type item struct{ id, name string }
	nameOf := func(i item) string { return i.name }
	idOf := func(i item) string { return i.id }
	items := []item{{"1", "data"}, {"2", "data-old"}, {"3", "dup"}, {"4", "dup"}}
	cases := []struct {
		name, lookup, wantID, wantErr string
	}{
		{"exact match, not prefix", "data", "1", ""},
		{"none", "missing", "", `no volume named "missing"`},
		{"several", "dup", "", `2 volumes are named "dup" (ids 3, 4)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pickByName("volume", tc.lookup, items, nameOf, idOf)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got.id != tc.wantID {
				t.Fatalf("got %+v, %v; want id %s", got, err, tc.wantID)
			}
		})
	}
}
