package daytonafake

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/md5" //nolint:gosec // S3 ETags are MD5 by definition
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// s3Prefix is where the fake's object storage lives: the storageUrl that
// GET /object-storage/push-access hands out. The SDKs talk to it with a
// path-style S3 client (sdk-go object_storage.go: UsePathStyle, bucket
// "daytona-volume-builds" by default, keys {organizationId}/{hash}/context.tar,
// ListObjectsV2 with that prefix to skip uploads that exist).
const s3Prefix = "/_fake/s3"

// s3Bucket is the bucket the fake issues access to.
const s3Bucket = "daytona-volume-builds"

type s3Object struct {
	data     []byte
	modified time.Time
}

type s3Creds struct{ secret, sessionToken string }

// objectStore is the fake's bucket and the temporary credentials it issued.
// It is guarded by Server.mu.
type objectStore struct {
	objects  map[string]s3Object
	contexts map[string]map[string]string // context hash -> unpacked tar files
	creds    map[string]s3Creds           // access key -> secret, session token
	puts     int
}

func newObjectStore() *objectStore {
	return &objectStore{objects: map[string]s3Object{}, contexts: map[string]map[string]string{}, creds: map[string]s3Creds{}}
}

func contextKey(org, hash string) string { return org + "/" + hash + "/context.tar" }

func (o *objectStore) hasContext(org, hash string) bool {
	_, ok := o.objects[contextKey(org, hash)]
	return ok
}

type storageAccessJSON struct {
	AccessKey      string `json:"accessKey"`
	Secret         string `json:"secret"`
	SessionToken   string `json:"sessionToken"`
	StorageURL     string `json:"storageUrl"`
	OrganizationID string `json:"organizationId"`
	Bucket         string `json:"bucket"`
}

// pushAccess is ObjectStorageService.getPushAccess
// (object-storage/services/object-storage.service.ts): temporary STS
// credentials allowed to put and get under {organizationId}/ and to list
// with that prefix. Each call issues a fresh set; all stay valid.
func (s *Server) pushAccess(_ *call) reply {
	access := storageAccessJSON{AccessKey: "ASIAFAKE" + strings.ToUpper(fakeapi.UUID()[:12]), Secret: fakeapi.UUID() + fakeapi.UUID(),
		SessionToken: fakeapi.UUID(), StorageURL: s.URL() + s3Prefix, OrganizationID: s.opts.OrganizationID, Bucket: s3Bucket}
	s.storage.creds[access.AccessKey] = s3Creds{secret: access.Secret, sessionToken: access.SessionToken}
	return reply{status: http.StatusOK, body: access}
}

type s3Error struct {
	XMLName xml.Name `xml:"Error"`
	Code    string   `xml:"Code"`
	Message string   `xml:"Message"`
}

func writeS3Error(w http.ResponseWriter, status int, code, msg string) {
	data, _ := xml.Marshal(s3Error{Code: code, Message: msg}) // fixed struct, cannot fail
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	_, _ = w.Write(append([]byte(xml.Header), data...)) // the client may have gone
}

// serveS3 is a minimal path-style S3: ListObjectsV2 (GET /{bucket}
// ?list-type=2), PutObject (PUT /{bucket}/{key}) and GetObject, each checked
// against the AWS SigV4 signature and the issued credentials' policy.
func (s *Server) serveS3(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeS3Error(w, http.StatusBadRequest, "IncompleteBody", err.Error())
		return
	}
	if status, code, msg := s.verifySigV4(r, body); status != 0 {
		writeS3Error(w, status, code, msg)
		return
	}
	if strings.Contains(r.Header.Get("Content-Encoding"), "aws-chunked") {
		if body, err = decodeAWSChunked(body); err != nil {
			writeS3Error(w, http.StatusBadRequest, "IncompleteBody", err.Error())
			return
		}
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, s3Prefix), "/")
	bucket, key, _ := strings.Cut(rest, "/")
	if bucket != s3Bucket {
		writeS3Error(w, http.StatusNotFound, "NoSuchBucket", "The specified bucket does not exist")
		return
	}
	org := s.opts.OrganizationID
	switch {
	case r.Method == http.MethodGet && key == "" && r.URL.Query().Get("list-type") == "2":
		prefix := r.URL.Query().Get("prefix")
		if prefix != org && !strings.HasPrefix(prefix, org+"/") {
			writeS3Error(w, http.StatusForbidden, "AccessDenied", "Access Denied")
			return
		}
		s.listObjects(w, prefix)
	case r.Method == http.MethodPut && key != "":
		if !strings.HasPrefix(key, org+"/") {
			writeS3Error(w, http.StatusForbidden, "AccessDenied", "Access Denied")
			return
		}
		s.putObject(w, key, body)
	case r.Method == http.MethodGet && key != "":
		s.mu.Lock()
		obj, ok := s.storage.objects[key]
		s.mu.Unlock()
		if !ok || !strings.HasPrefix(key, org+"/") {
			writeS3Error(w, http.StatusNotFound, "NoSuchKey", "The specified key does not exist.")
			return
		}
		w.Header().Set("ETag", etag(obj.data))
		_, _ = w.Write(obj.data) // the client may have gone
	default:
		writeS3Error(w, http.StatusNotImplemented, "NotImplemented", "the Daytona fake serves only ListObjectsV2, PutObject and GetObject")
	}
}

func etag(data []byte) string {
	sum := md5.Sum(data) //nolint:gosec // S3 ETags are MD5 by definition
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

type listBucketResult struct {
	XMLName     xml.Name     `xml:"http://s3.amazonaws.com/doc/2006-03-01/ ListBucketResult"`
	Name        string       `xml:"Name"`
	Prefix      string       `xml:"Prefix"`
	KeyCount    int          `xml:"KeyCount"`
	MaxKeys     int          `xml:"MaxKeys"`
	IsTruncated bool         `xml:"IsTruncated"`
	Contents    []s3Contents `xml:"Contents"`
}

type s3Contents struct {
	Key          string `xml:"Key"`
	LastModified string `xml:"LastModified"`
	ETag         string `xml:"ETag"`
	Size         int    `xml:"Size"`
	StorageClass string `xml:"StorageClass"`
}

func (s *Server) listObjects(w http.ResponseWriter, prefix string) {
	s.mu.Lock()
	res := listBucketResult{Name: s3Bucket, Prefix: prefix, MaxKeys: 1000}
	for key, obj := range s.storage.objects {
		if strings.HasPrefix(key, prefix) {
			res.Contents = append(res.Contents, s3Contents{Key: key, LastModified: obj.modified.UTC().Format(time.RFC3339),
				ETag: etag(obj.data), Size: len(obj.data), StorageClass: "STANDARD"})
		}
	}
	s.mu.Unlock()
	sort.Slice(res.Contents, func(i, j int) bool { return res.Contents[i].Key < res.Contents[j].Key })
	res.KeyCount = len(res.Contents)
	data, _ := xml.Marshal(res) // fixed struct, cannot fail
	w.Header().Set("Content-Type", "application/xml")
	_, _ = w.Write(append([]byte(xml.Header), data...)) // the client may have gone
}

// putObject stores an object; a build context ({org}/{hash}/context.tar) is
// unpacked so tests can read its files (ContextFiles).
func (s *Server) putObject(w http.ResponseWriter, key string, data []byte) {
	files := map[string]string(nil)
	parts := strings.Split(key, "/")
	if len(parts) == 3 && parts[2] == "context.tar" {
		var err error
		if files, err = untar(data); err != nil {
			writeS3Error(w, http.StatusBadRequest, "InvalidArgument", "context.tar is not a tar archive: "+err.Error())
			return
		}
	}
	s.mu.Lock()
	s.storage.objects[key] = s3Object{data: append([]byte(nil), data...), modified: s.clock.Now()}
	s.storage.puts++
	if files != nil {
		s.storage.contexts[parts[1]] = files
	}
	s.mu.Unlock()
	w.Header().Set("ETag", etag(data))
	w.WriteHeader(http.StatusOK)
}

func untar(data []byte) (map[string]string, error) {
	files := map[string]string{}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files[h.Name] = string(b)
	}
}

// decodeAWSChunked strips aws-chunked framing ("<hex size>[;ext]\r\n<data>
// \r\n" ... "0\r\n" trailers), which SDKs use to send trailing checksums.
func decodeAWSChunked(body []byte) ([]byte, error) {
	var out []byte
	for {
		line, rest, ok := bytes.Cut(body, []byte("\r\n"))
		if !ok {
			return nil, errors.New("truncated aws-chunked body")
		}
		sizeHex, _, _ := strings.Cut(string(line), ";")
		var size int
		if _, err := fmt.Sscanf(sizeHex, "%x", &size); err != nil {
			return nil, fmt.Errorf("bad aws-chunked size %q", sizeHex)
		}
		if size == 0 {
			return out, nil
		}
		if len(rest) < size+2 {
			return nil, errors.New("truncated aws-chunked chunk")
		}
		out = append(out, rest[:size]...)
		body = rest[size+2:]
	}
}

// verifySigV4 recomputes the request's AWS Signature Version 4 with the
// secret the fake issued for its access key, using the SDK's own signer over
// the headers the client said it signed, and compares. It returns a zero
// status when the signature holds.
func (s *Server) verifySigV4(r *http.Request, body []byte) (status int, code, msg string) {
	auth := r.Header.Get("Authorization")
	rest, ok := strings.CutPrefix(auth, "AWS4-HMAC-SHA256 ")
	if !ok {
		return http.StatusForbidden, "AccessDenied", "Access Denied: the request is not signed with AWS4-HMAC-SHA256"
	}
	fields := map[string]string{}
	for _, part := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		fields[k] = v
	}
	scope := strings.Split(fields["Credential"], "/")
	if len(scope) != 5 || scope[3] != "s3" || scope[4] != "aws4_request" {
		return http.StatusForbidden, "AuthorizationHeaderMalformed", "malformed Credential " + fields["Credential"]
	}
	s.mu.Lock()
	creds, known := s.storage.creds[scope[0]]
	s.mu.Unlock()
	if !known {
		return http.StatusForbidden, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records."
	}
	if r.Header.Get("X-Amz-Security-Token") != creds.sessionToken {
		return http.StatusForbidden, "InvalidToken", "The provided token is malformed or otherwise invalid."
	}
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return http.StatusForbidden, "AccessDenied", "missing or bad X-Amz-Date"
	}
	payloadHash := r.Header.Get("X-Amz-Content-Sha256")
	if payloadHash == "" {
		return http.StatusBadRequest, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256"
	}
	if !strings.HasPrefix(payloadHash, "UNSIGNED-PAYLOAD") && !strings.HasPrefix(payloadHash, "STREAMING-") {
		sum := sha256.Sum256(body)
		if hex.EncodeToString(sum[:]) != payloadHash {
			return http.StatusBadRequest, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed."
		}
	}
	check, err := http.NewRequest(r.Method, "http://"+r.Host+r.URL.RequestURI(), nil)
	if err != nil {
		return http.StatusBadRequest, "InvalidRequest", err.Error()
	}
	check.Host = r.Host
	for _, name := range strings.Split(fields["SignedHeaders"], ";") {
		switch name {
		case "host":
		case "content-length":
			check.ContentLength = r.ContentLength
		default:
			check.Header[http.CanonicalHeaderKey(name)] = r.Header.Values(name)
		}
	}
	err = v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: scope[0], SecretAccessKey: creds.secret, SessionToken: creds.sessionToken},
		check, payloadHash, "s3", scope[2], at, func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })
	if err != nil {
		return http.StatusInternalServerError, "InternalError", err.Error()
	}
	want := check.Header.Get("Authorization")
	if !strings.HasSuffix(want, "Signature="+fields["Signature"]) || !strings.Contains(want, "SignedHeaders="+fields["SignedHeaders"]+",") {
		return http.StatusForbidden, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided."
	}
	return 0, "", ""
}
