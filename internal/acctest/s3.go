package acctest

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// S3 is an S3-compatible server of one test, on a local port, in memory:
// the S3 API as Terraform's s3 backend and the AWS SDK speak it (gofakes3;
// path-style addressing).
type S3 struct {
	// URL is the endpoint (endpoints.s3, AWS_ENDPOINT_URL_S3).
	URL     string
	backend *s3mem.Backend
}

// StartS3 starts the server; it stops when the test ends.
func StartS3(t testing.TB) *S3 {
	t.Helper()
	b := s3mem.New()
	srv := httptest.NewServer(gofakes3.New(b).Server())
	t.Cleanup(srv.Close)
	return &S3{URL: srv.URL, backend: b}
}

// CreateBucket makes an empty bucket.
func (s *S3) CreateBucket(t testing.TB, bucket string) {
	t.Helper()
	if err := s.backend.CreateBucket(bucket); err != nil {
		t.Fatalf("creating bucket %s: %v", bucket, err)
	}
}

// Put writes an object, as a backend writes a state: for tests about
// reading a bucket, where the states need no terraform apply.
func (s *S3) Put(t testing.TB, bucket, key, data string) {
	t.Helper()
	if _, err := s.backend.PutObject(bucket, key, map[string]string{}, strings.NewReader(data), int64(len(data)), nil); err != nil {
		t.Fatalf("putting s3://%s/%s: %v", bucket, key, err)
	}
}
